package io.kafkamv.service.tables;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.connectors.format.MalformedRecordException;
import io.kafkamv.connectors.format.SourceRecordDecoder;
import io.kafkamv.connectors.kafka.TopicScan;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;

/**
 * A table's current rows, read from its topic up to the end offsets of the moment of the read:
 * the latest value per key, without deleted keys.
 */
public final class TopicSnapshot {

    private TopicSnapshot() {
    }

    public static List<Object[]> read(Properties clientProperties, Relation table) {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 * 1024 * 1024));
        RowCodec values = new RowCodec(table.schema().columns());
        SourceRecordDecoder source = table.hasNativeFormat() ? null
            : new SourceRecordDecoder(table.schema(), table.format(), table.formatOptions());
        RowCodec keys = new RowCodec(table.key());
        Map<Bytes, Object[]> rows = new LinkedHashMap<>();
        TopicScan.toEnd(properties, table.topic(), record -> {
            if (source != null) {
                readSourceRecord(record, source, keys, rows);
                return;
            }
            Bytes key = Bytes.wrap(record.key());
            if (record.value() == null) {
                rows.remove(key);
            } else {
                rows.put(key, values.decode(record.value()));
            }
        });
        return new ArrayList<>(rows.values());
    }

    /** A source's record as views read it: an upsert or delete by primary key, or an insert; unreadable ones skipped. */
    private static void readSourceRecord(ConsumerRecord<byte[], byte[]> record, SourceRecordDecoder decoder,
                                         RowCodec keys, Map<Bytes, Object[]> rows) {
        SourceRecordDecoder.Change change;
        try {
            change = decoder.decode(record.partition(), record.offset(), record.timestamp(), record.headers(), record.key(),
                record.value());
        } catch (MalformedRecordException e) {
            return;
        }
        if (change == null) {
            return;
        }
        Bytes key = Bytes.wrap(keys.encode(change.key()));
        if (change.row() == null) {
            rows.remove(key);
        } else {
            rows.put(key, change.row());
        }
    }
}
