package io.kafkamv.compiler.topology.internal;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps a view whose rows are only ever inserted: each row goes into the view's store, where queries
 * read it, and on to the view's output topic. A row's key never changes after it is inserted, so the
 * row stays in the task that read it, and no table (and no exchange in front of one) is needed.
 */
public final class ViewAppender implements Processor<Object[], Object[], Object[], Object[]> {

    private final String store;
    private KeyValueStore<Object[], Object[]> rows;
    private ProcessorContext<Object[], Object[]> context;

    public ViewAppender(String store) {
        this.store = store;
    }

    @Override
    public void init(ProcessorContext<Object[], Object[]> context) {
        this.context = context;
        this.rows = context.getStateStore(store);
    }

    @Override
    public void process(Record<Object[], Object[]> record) {
        if (record.value() == null) {
            return;
        }
        rows.put(record.key(), record.value());
        context.forward(record);
    }
}
