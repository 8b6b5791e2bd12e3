package io.kafkamv.compiler.topology.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import io.kafkamv.compiler.plan.TopNStep;
import io.kafkamv.compiler.runtime.CompositeKeys;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps every row of each group in a store ordered by sort key, and after each change emits the
 * difference between the group's top before and after: rows that left it are deleted, rows that
 * entered it or moved (when their position is a column) are written. A change costs two scans of
 * the top, not of the group.
 */
public final class TopNProcessor implements Processor<byte[], byte[], Object[], Object[]> {

    private static final BytesSerializer PREFIX = new BytesSerializer();

    private final TopNStep step;
    private final SortKeys sortKeys;
    private final RowCodec inputRows;
    private KeyValueStore<Bytes, byte[]> sorted;
    private KeyValueStore<Bytes, byte[]> sortKeysByRow;
    private ProcessorContext<Object[], Object[]> context;

    public TopNProcessor(TopNStep step, SortKeys sortKeys, RowCodec inputRows) {
        this.step = step;
        this.sortKeys = sortKeys;
        this.inputRows = inputRows;
    }

    /** Rows by group, sort key and row key; the value holds the row key's length, the row key and the row. */
    public static String sortedStore(TopNStep step) {
        return step.id() + "-sorted";
    }

    /** Each row's current sort key, by group and row key, to find it in the sorted store. */
    public static String sortKeyStore(TopNStep step) {
        return step.id() + "-sort-keys";
    }

    @Override
    public void init(ProcessorContext<Object[], Object[]> context) {
        this.context = context;
        this.sorted = context.getStateStore(sortedStore(step));
        this.sortKeysByRow = context.getStateStore(sortKeyStore(step));
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        byte[] prefix = CompositeKeys.prefixOf(record.key());
        byte[] rowKey = CompositeKeys.rowKeyOf(record.key());
        byte[] newRow = JoinSide.row(record.value());
        Bytes rowId = Bytes.wrap(record.key());
        byte[] oldSortKey = sortKeysByRow.get(rowId);
        byte[] newSortKey = newRow == null ? null : sortKeys.encode(inputRows.decode(newRow));
        if (oldSortKey == null && newSortKey == null) {
            return;
        }
        Map<Bytes, Ranked> before = top(prefix);
        if (oldSortKey != null) {
            sorted.delete(sortedKey(prefix, oldSortKey, rowKey));
            sortKeysByRow.delete(rowId);
        }
        if (newRow != null) {
            sorted.put(sortedKey(prefix, newSortKey, rowKey),
                ByteBuffer.allocate(4 + rowKey.length + newRow.length).putInt(rowKey.length).put(rowKey).put(newRow)
                    .array());
            sortKeysByRow.put(rowId, newSortKey);
        }
        Map<Bytes, Ranked> after = top(prefix);
        before.forEach((key, ranked) -> {
            if (!after.containsKey(key)) {
                context.forward(new Record<>(new Object[] {prefix, key.get()}, null, record.timestamp(),
                    record.headers()));
            }
        });
        after.forEach((key, ranked) -> {
            Ranked previous = before.get(key);
            boolean moved = previous == null || !Arrays.equals(previous.row, ranked.row)
                || step.rowNumber() && previous.position != ranked.position;
            if (moved) {
                context.forward(new Record<>(new Object[] {prefix, key.get()}, output(ranked), record.timestamp(),
                    record.headers()));
            }
        });
    }

    private Object[] output(Ranked ranked) {
        Object[] row = inputRows.decode(ranked.row);
        if (!step.rowNumber()) {
            return row;
        }
        Object[] numbered = Arrays.copyOf(row, row.length + 1);
        numbered[row.length] = ranked.position;
        return numbered;
    }

    private record Ranked(long position, byte[] row) {
    }

    /** The group's rows from offset + 1 to offset + limit, by row key, in order. */
    private Map<Bytes, Ranked> top(byte[] prefix) {
        Map<Bytes, Ranked> top = new LinkedHashMap<>();
        long position = 0;
        try (KeyValueIterator<Bytes, byte[]> rows = sorted.prefixScan(Bytes.wrap(prefix), PREFIX)) {
            while (rows.hasNext() && position < step.offset() + step.limit()) {
                KeyValue<Bytes, byte[]> entry = rows.next();
                position++;
                if (position > step.offset()) {
                    ByteBuffer value = ByteBuffer.wrap(entry.value);
                    byte[] rowKey = new byte[value.getInt()];
                    value.get(rowKey);
                    byte[] row = new byte[value.remaining()];
                    value.get(row);
                    top.put(Bytes.wrap(rowKey), new Ranked(position - step.offset(), row));
                }
            }
        }
        return top;
    }

    private static Bytes sortedKey(byte[] prefix, byte[] sortKey, byte[] rowKey) {
        return Bytes.wrap(ByteBuffer.allocate(prefix.length + sortKey.length + rowKey.length)
            .put(prefix).put(sortKey).put(rowKey).array());
    }
}
