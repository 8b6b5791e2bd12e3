package io.kafkamv.compiler.topology.internal;

import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kafkamv.compiler.plan.SinkOutput;
import io.kafkamv.connectors.format.AvroSinkEncoders;
import io.kafkamv.connectors.format.JsonRowEncoder;
import io.kafkamv.connectors.format.RowEncoder;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.schema.Column;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Turns a sink's row changes into the messages its type calls for. The last row written for each
 * key is kept, because a change carries only the new row: a delete needs the old one for its
 * message key, Debezium's envelope for {@code before}, and an upsert whose key columns changed must
 * delete the message under the old key.
 */
public final class SinkEncoder implements Processor<Object[], Object[], byte[], byte[]> {

    public static final String LAST_ROWS = "sink-last-rows";

    private final SinkOutput output;
    private final String name;
    private final RowCodec rowKeys;
    private final RowCodec rows;
    /** The rows of Debezium envelopes, which are JSON whatever the format. */
    private final JsonRowEncoder jsonRows;
    private final RowEncoder values;
    private final RowEncoder messageKeys;
    private final int[] keyColumns;
    private KeyValueStore<Bytes, byte[]> lastRows;
    private ProcessorContext<byte[], byte[]> context;

    public SinkEncoder(SinkOutput output, String name, List<Column> rowKey, List<Column> columns) {
        this.output = output;
        this.name = name;
        this.rowKeys = new RowCodec(rowKey);
        this.rows = new RowCodec(columns);
        this.jsonRows = new JsonRowEncoder(columns);
        List<Column> keys = output.messageKey(columns);
        this.keyColumns = keys.stream().mapToInt(columns::indexOf).toArray();
        if ("avro".equals(output.format())) {
            AvroSinkEncoders avro = AvroSinkEncoders.of(name, output.topic(), columns, keys, output.formatOptions());
            this.values = avro.values();
            this.messageKeys = avro.keys();
        } else {
            this.values = jsonRows;
            this.messageKeys = new JsonRowEncoder(keys);
        }
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.lastRows = context.getStateStore(LAST_ROWS);
    }

    @Override
    public void process(Record<Object[], Object[]> record) {
        Bytes rowKey = Bytes.wrap(rowKeys.encode(record.key()));
        byte[] last = lastRows.get(rowKey);
        Object[] before = last == null ? null : rows.decode(last);
        Object[] after = record.value();
        if (before == null && after == null) {
            return;
        }
        if (after == null) {
            lastRows.delete(rowKey);
        } else {
            lastRows.put(rowKey, rows.encode(after));
        }
        switch (output.type()) {
            case UPSERT -> {
                byte[] oldKey = before == null ? null : messageKey(before);
                byte[] newKey = after == null ? null : messageKey(after);
                if (oldKey != null && !Arrays.equals(oldKey, newKey)) {
                    send(record, oldKey, null);
                }
                if (newKey != null) {
                    send(record, newKey, values.encode(after));
                }
            }
            case APPEND_ONLY -> {
                // Only a forced sink sees updates and deletes: it writes an update's new row as an insert.
                if (after != null && (before == null || output.forceAppendOnly())) {
                    send(record, keyColumns.length == 0 ? null : messageKey(after), values.encode(after));
                }
            }
            case DEBEZIUM -> {
                byte[] key = messageKey(after != null ? after : before);
                send(record, key, JsonRowEncoder.bytes(envelope(before, after, record.timestamp())));
                if (after == null) {
                    send(record, key, null);
                }
            }
        }
    }

    private ObjectNode envelope(Object[] before, Object[] after, long timestamp) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode envelope = nodes.objectNode();
        envelope.set("before", before == null ? nodes.nullNode() : jsonRows.toJson(before));
        envelope.set("after", after == null ? nodes.nullNode() : jsonRows.toJson(after));
        envelope.put("op", before == null ? "c" : after == null ? "d" : "u");
        envelope.put("ts_ms", timestamp);
        envelope.set("source", nodes.objectNode().put("connector", "kafka-mv").put("name", name));
        return envelope;
    }

    private byte[] messageKey(Object[] row) {
        Object[] key = new Object[keyColumns.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[keyColumns[i]];
        }
        return messageKeys.encode(key);
    }

    private void send(Record<Object[], Object[]> record, byte[] key, byte[] value) {
        context.forward(new Record<>(key, value, record.timestamp(), record.headers()));
    }
}
