package io.kafkamv.compiler.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.plan.AggregateStep.AggregateCall;
import io.kafkamv.connectors.row.RowSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The local half of a local-global aggregation: folds rows that are only ever inserted into one
 * partial aggregate per group, and sends the partials on to their groups' partitions every
 * {@link #FLUSH_INTERVAL}, or sooner once {@link #MAX_GROUPS} groups are held. The exchange then
 * carries a partial per group and flush instead of every row.
 *
 * <p>Where it does not pay, it steps aside: when a flush finds that its partials folded fewer than
 * {@link #WORTHWHILE_ROWS_PER_GROUP} rows each (about one group per row), the next
 * {@link #PASS_THROUGH_ROWS} rows go on at once, each as a partial of its own, before it tries again.
 *
 * <p>The partials live in a store whose changelog commits with the input offsets, so a crash loses
 * nothing; and what they hold back is written down in {@link PendingPartials}, so a job knows
 * whether its committed offsets are all in the aggregates yet.
 */
final class PartialAggregator implements Processor<Object[], Object[], Object[], Accumulator> {

    static final Duration FLUSH_INTERVAL = Duration.ofMillis(100);
    static final int MAX_GROUPS = 10_000;
    static final double WORTHWHILE_ROWS_PER_GROUP = 2;
    static final long PASS_THROUGH_ROWS = 200_000;
    /** Fewer rows than this since the last flush say nothing about how well they fold. */
    private static final long SAMPLE_ROWS = 1_000;

    private final AggregateStep step;
    private final AggregateCall[] calls;
    private final int[] groupBy;
    private final Map<String, Long> firstOffsets = new HashMap<>();
    private ProcessorContext<Object[], Accumulator> context;
    private KeyValueStore<Object[], Accumulator> partials;
    private KeyValueStore<String, String> pending;
    private Cancellable flushes;
    private int groups;
    private long folded;
    private long passThroughLeft;
    private long latestTimestamp;

    PartialAggregator(AggregateStep step) {
        this.step = step;
        this.calls = step.aggregates().toArray(AggregateCall[]::new);
        this.groupBy = step.groupBy().stream().mapToInt(Integer::intValue).toArray();
    }

    static String partialsStore(AggregateStep step) {
        return step.id() + "-partials";
    }

    static String pendingStore(AggregateStep step) {
        return PendingPartials.storeName(step.id());
    }

    /** In memory, with a cache so that a group's partial reaches the changelog once per commit, not once per row. */
    static StoreBuilder<KeyValueStore<Object[], Accumulator>> partialsStoreBuilder(AggregateStep step) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(partialsStore(step)),
            new RowSerde(step.key()), new AccumulatorSerde(step.aggregates().size())).withCachingEnabled();
    }

    static StoreBuilder<KeyValueStore<String, String>> pendingStoreBuilder(AggregateStep step) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(pendingStore(step)),
            Serdes.String(), Serdes.String()).withCachingEnabled();
    }

    @Override
    public void init(ProcessorContext<Object[], Accumulator> context) {
        this.context = context;
        this.partials = context.getStateStore(partialsStore(step));
        this.pending = context.getStateStore(pendingStore(step));
        // Kafka Streams also inits this same processor again when it revives a corrupted task: the stores
        // then hold what the last commit held back, and nothing of what was processed since may stay here.
        firstOffsets.clear();
        firstOffsets.putAll(PendingPartials.decode(pending.get(PendingPartials.KEY)));
        groups = (int) Math.min(Integer.MAX_VALUE, partials.approximateNumEntries());
        folded = 0;
        passThroughLeft = 0;
        latestTimestamp = context.currentStreamTimeMs();
        if (flushes != null) {
            flushes.cancel();
        }
        flushes = context.schedule(FLUSH_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> flush());
    }

    @Override
    public void close() {
        if (flushes != null) {
            flushes.cancel();
            flushes = null;
        }
    }

    @Override
    public void process(Record<Object[], Object[]> record) {
        Object[] row = record.value();
        Object[] group = new Object[groupBy.length];
        for (int i = 0; i < groupBy.length; i++) {
            group[i] = row[groupBy[i]];
        }
        var metadata = context.recordMetadata().filter(known -> known.topic() != null && known.offset() >= 0);
        if (passThroughLeft > 0 || metadata.isEmpty()) {
            // A row with no input position (one made in a punctuation) could not be written down as held back.
            passThroughLeft = Math.max(0, passThroughLeft - 1);
            Accumulator single = new Accumulator(calls.length);
            single.addInPlace(calls, row);
            context.forward(new Record<>(group, single, record.timestamp()));
            return;
        }
        folded++;
        Accumulator partial = partials.get(group);
        if (partial == null) {
            partial = new Accumulator(calls.length);
            groups++;
        }
        partial.addInPlace(calls, row);
        partials.put(group, partial);
        latestTimestamp = Math.max(latestTimestamp, record.timestamp());
        String partition = metadata.get().topic() + ":" + metadata.get().partition();
        if (!firstOffsets.containsKey(partition)) {
            firstOffsets.put(partition, metadata.get().offset());
            pending.put(PendingPartials.KEY, PendingPartials.encode(firstOffsets));
        }
        if (groups >= MAX_GROUPS) {
            flush();
        }
    }

    private void flush() {
        if (groups == 0 && firstOffsets.isEmpty()) {
            return;
        }
        List<KeyValue<Object[], Accumulator>> held = new ArrayList<>();
        try (KeyValueIterator<Object[], Accumulator> all = partials.all()) {
            all.forEachRemaining(held::add);
        }
        for (KeyValue<Object[], Accumulator> partial : held) {
            context.forward(new Record<>(partial.key, partial.value, latestTimestamp));
            partials.delete(partial.key);
        }
        if (folded >= SAMPLE_ROWS && folded < WORTHWHILE_ROWS_PER_GROUP * held.size()) {
            passThroughLeft = PASS_THROUGH_ROWS;
        }
        folded = 0;
        groups = 0;
        firstOffsets.clear();
        pending.delete(PendingPartials.KEY);
    }
}
