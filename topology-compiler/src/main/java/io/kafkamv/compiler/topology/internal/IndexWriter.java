package io.kafkamv.compiler.topology.internal;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps an index's entries: each row under its indexed values (the exchange prefix) and its key,
 * so that a prefix scan of {@link #STORE} with {@link io.kafkamv.compiler.runtime.IndexKeys#prefix} finds the rows with given values.
 */
public final class IndexWriter implements Processor<byte[], byte[], Void, Void> {

    public static final String STORE = "index";

    private KeyValueStore<Bytes, byte[]> entries;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        entries = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        byte[] row = JoinSide.row(record.value());
        if (row == null) {
            entries.delete(Bytes.wrap(record.key()));
        } else {
            entries.put(Bytes.wrap(record.key()), row);
        }
    }
}
