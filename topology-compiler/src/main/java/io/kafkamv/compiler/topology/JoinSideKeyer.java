package io.kafkamv.compiler.topology;

import java.util.Arrays;

import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Re-keys one side of a join by its join key, for the exchange. A table's changes carry only the new
 * row, so the join key each row had last is remembered here: when it changes, the row is first
 * deleted under the old one, which may live in another partition of the exchange.
 */
final class JoinSideKeyer implements Processor<Object[], Object[], byte[], byte[]> {

    private final JoinSide side;
    private final JoinKeys keys;
    private final RowCodec inputKeys;
    private final RowCodec inputRows;
    private final String storeName;
    private KeyValueStore<Bytes, byte[]> lastPrefixes;
    private ProcessorContext<byte[], byte[]> context;

    JoinSideKeyer(JoinSide side, JoinKeys keys, RowCodec inputKeys, RowCodec inputRows, String storeName) {
        this.side = side;
        this.keys = keys;
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
        byte[] prefix = record.value() == null ? null : keys.prefix(record.value());
        if (previous != null && !Arrays.equals(previous, prefix)) {
            context.forward(record.withKey(JoinKeys.compose(previous, rowKey)).withValue(side.change(null)));
        }
        if (prefix != null) {
            context.forward(record.withKey(JoinKeys.compose(prefix, rowKey))
                .withValue(side.change(inputRows.encode(record.value()))));
            lastPrefixes.put(storeKey, prefix);
        } else if (previous != null) {
            lastPrefixes.delete(storeKey);
        }
    }
}
