package io.kafkamv.compiler.topology.internal;

import java.util.Arrays;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.kafkamv.compiler.runtime.CompositeKeys;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Re-keys a table's changes for an {@link Exchange}: each row under its prefix (the join key or
 * group it belongs to) and its own key. A table's changes carry only the new row, so the prefix each
 * row had last is remembered here: when it changes, the row is first deleted under the old one,
 * which may live in another partition of the exchange.
 */
public final class ExchangeKeyer implements Processor<Object[], Object[], byte[], byte[]> {

    private final Function<Object[], byte[]> prefixes;
    private final UnaryOperator<byte[]> changes;
    private final RowCodec inputKeys;
    private final RowCodec inputRows;
    private final String storeName;
    private KeyValueStore<Bytes, byte[]> lastPrefixes;
    private ProcessorContext<byte[], byte[]> context;

    /**
     * @param prefixes a row's prefix, see {@link CompositeKeys}
     * @param changes  what is sent for a row's bytes, or for null when the row is gone
     */
    public ExchangeKeyer(Function<Object[], byte[]> prefixes, UnaryOperator<byte[]> changes, RowCodec inputKeys,
                  RowCodec inputRows, String storeName) {
        this.prefixes = prefixes;
        this.changes = changes;
        this.inputKeys = inputKeys;
        this.inputRows = inputRows;
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.lastPrefixes = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<Object[], Object[]> record) {
        byte[] rowKey = inputKeys.encode(record.key());
        Bytes storeKey = Bytes.wrap(rowKey);
        byte[] previous = lastPrefixes.get(storeKey);
        byte[] prefix = record.value() == null ? null : prefixes.apply(record.value());
        if (previous != null && !Arrays.equals(previous, prefix)) {
            context.forward(record.withKey(CompositeKeys.compose(previous, rowKey)).withValue(changes.apply(null)));
        }
        if (prefix != null) {
            context.forward(record.withKey(CompositeKeys.compose(prefix, rowKey))
                .withValue(changes.apply(inputRows.encode(record.value()))));
            lastPrefixes.put(storeKey, prefix);
        } else if (previous != null) {
            lastPrefixes.delete(storeKey);
        }
    }
}
