package io.kafkamv.compiler.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.plan.AggregateStep.AggregateCall;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The local half of a two-phase aggregation over rows that are only ever inserted: it folds the rows
 * of each group into a partial accumulator where they arrive, and every {@link #FLUSH_EVERY} sends the
 * partials, not the rows, over the exchange to the group's partition, where they are merged.
 *
 * <p>The partials live in a cached, changelogged store rather than in a map: the cache absorbs the
 * writes of one group between commits, and a partial that has not been sent yet when the input
 * offsets are committed is committed with them, so a crash neither loses nor repeats a row.
 */
final class PartialAggregator implements Processor<Object[], Object[], Object[], Accumulator> {

    static final Duration FLUSH_EVERY = Duration.ofMillis(100);

    private final AggregateStep step;
    private final AggregateCall[] calls;
    private final int[] groupBy;
    private ProcessorContext<Object[], Accumulator> context;
    private KeyValueStore<Object[], Accumulator> partials;

    PartialAggregator(AggregateStep step) {
        this.step = step;
        this.calls = step.aggregates().toArray(AggregateCall[]::new);
        this.groupBy = step.groupBy().stream().mapToInt(Integer::intValue).toArray();
    }

    static String storeName(AggregateStep step) {
        return step.id() + "-partials";
    }

    @Override
    public void init(ProcessorContext<Object[], Accumulator> context) {
        this.context = context;
        this.partials = context.getStateStore(storeName(step));
        context.schedule(FLUSH_EVERY, PunctuationType.WALL_CLOCK_TIME, this::flush);
    }

    @Override
    public void process(Record<Object[], Object[]> record) {
        Object[] row = record.value();
        if (row == null) {
            return;
        }
        Object[] group = new Object[groupBy.length];
        for (int i = 0; i < groupBy.length; i++) {
            group[i] = row[groupBy[i]];
        }
        Accumulator partial = partials.get(group);
        if (partial == null) {
            partial = new Accumulator(calls.length);
        }
        partial.add(calls, row, 1);
        partials.put(group, partial);
    }

    private void flush(long now) {
        List<KeyValue<Object[], Accumulator>> ready = new ArrayList<>();
        try (KeyValueIterator<Object[], Accumulator> all = partials.all()) {
            all.forEachRemaining(ready::add);
        }
        for (KeyValue<Object[], Accumulator> partial : ready) {
            context.forward(new Record<>(partial.key, partial.value, now));
            partials.delete(partial.key);
        }
    }
}
