package io.kafkamv.compiler.topology.internal;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the copy of a looked-up table's topic that every instance holds: each record's bytes as they are, a
 * tombstone deleting its key. Kafka Streams restores the store by running the topic's records through this
 * processor again, which leaves the same bytes.
 */
public final class LookupTableUpdater implements Processor<Bytes, byte[], Void, Void> {

    private final String store;
    private KeyValueStore<Bytes, byte[]> table;

    public LookupTableUpdater(String store) {
        this.store = store;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.table = context.getStateStore(store);
    }

    @Override
    public void process(Record<Bytes, byte[]> record) {
        if (record.value() == null) {
            table.delete(record.key());
        } else {
            table.put(record.key(), record.value());
        }
    }
}
