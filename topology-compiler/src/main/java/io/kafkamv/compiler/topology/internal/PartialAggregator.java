package io.kafkamv.compiler.topology.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.kafkamv.compiler.plan.AggregateStep.AggregateCall;
import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.runtime.HeldBackOffsets;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The local half of a local-global aggregation: folds rows that are only ever inserted into one
 * partial aggregate per group, and sends the partials on to their groups' partitions. The exchange
 * then carries a partial per group and flush instead of every row.
 *
 * <p>When to flush trades latency for less work downstream. Every {@link #FLUSH_INTERVAL} it looks:
 * after a quiet interval (fewer than {@link #QUIET_ROWS} rows in it), or once the partials fold
 * {@link #FOLDED_ENOUGH} rows each, they go on at once, so that a trickle of rows is visible within
 * about a tenth of a second, and the end of a backfill does not wait; a busy input with many groups
 * (a backfill) is held up to {@link #MAX_HOLD} to fold further. With 1,000 groups, four partitions and 25,000 rows a second per partition, a flush
 * every 100 ms folded 2.5 rows per partial; holding a second folds 25. Past {@link #MAX_GROUPS} groups
 * it flushes at once, which bounds the memory.
 *
 * <p>Where it does not pay, it steps aside: when a flush finds that its partials folded fewer than
 * {@link #WORTHWHILE_ROWS_PER_GROUP} rows each (about one group per row), the next
 * {@link #PASS_THROUGH_ROWS} rows go on at once, each as a partial of its own, before it tries again.
 *
 * <p>The partials live in a {@link HeldBackPartialsStore}, whose changelog commits with the input offsets,
 * so a crash loses nothing; and what they hold back is written down in {@link HeldBackOffsets}, so a
 * job knows whether its committed offsets are all in the aggregates yet.
 */
public final class PartialAggregator implements Processor<Object[], Object[], Object[], Accumulator> {

    public static final Duration FLUSH_INTERVAL = Duration.ofMillis(100);
    public static final Duration MAX_HOLD = Duration.ofSeconds(1);
    /** Fewer rows than this in a flush interval make it quiet; fewer since a flush say nothing about how well rows fold. */
    public static final long QUIET_ROWS = 2_000;
    static final double FOLDED_ENOUGH = 16;
    static final int MAX_GROUPS = 10_000;
    static final double WORTHWHILE_ROWS_PER_GROUP = 2;
    static final long PASS_THROUGH_ROWS = 200_000;

    private final AggregateStep step;
    private final AggregateCall[] calls;
    private final int[] groupBy;
    private final Map<String, Long> firstOffsets = new HashMap<>();
    private ProcessorContext<Object[], Accumulator> context;
    private HeldBackPartialsStore held;
    private KeyValueStore<String, String> pending;
    private Cancellable flushes;
    private long lastFlush;
    private long folded;
    private long foldedAtLastLook;
    private long passThroughLeft;
    private long latestTimestamp;
    /** The input partition of the last row folded in, once {@link #firstOffsets} has it. */
    private String lastTopic;
    private int lastPartition = -1;

    public PartialAggregator(AggregateStep step) {
        this.step = step;
        this.calls = step.aggregates().toArray(AggregateCall[]::new);
        this.groupBy = step.groupBy().stream().mapToInt(Integer::intValue).toArray();
    }

    public static String partialsStore(AggregateStep step) {
        return step.id() + "-partials";
    }

    public static String pendingStore(AggregateStep step) {
        return HeldBackOffsets.storeName(step.id());
    }

    public static StoreBuilder<HeldBackPartialsStore> partialsStoreBuilder(AggregateStep step) {
        return HeldBackPartialsStore.builder(partialsStore(step), step);
    }

    public static StoreBuilder<KeyValueStore<String, String>> pendingStoreBuilder(AggregateStep step) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(pendingStore(step)),
            Serdes.String(), Serdes.String()).withCachingEnabled();
    }

    @Override
    public void init(ProcessorContext<Object[], Accumulator> context) {
        this.context = context;
        this.held = context.getStateStore(partialsStore(step));
        this.pending = context.getStateStore(pendingStore(step));
        // Kafka Streams also inits this same processor again when it revives a corrupted task: the stores
        // then hold what the last commit held back, and nothing of what was processed since may stay here.
        firstOffsets.clear();
        firstOffsets.putAll(HeldBackOffsets.decode(pending.get(HeldBackOffsets.KEY)));
        lastTopic = null;
        held.reload();
        folded = 0;
        foldedAtLastLook = 0;
        passThroughLeft = 0;
        latestTimestamp = context.currentStreamTimeMs();
        lastFlush = context.currentSystemTimeMs();
        if (flushes != null) {
            flushes.cancel();
        }
        flushes = context.schedule(FLUSH_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::maybeFlush);
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
        RecordMetadata metadata = context.recordMetadata().orElse(null);
        if (passThroughLeft > 0 || metadata == null || metadata.topic() == null || metadata.offset() < 0) {
            // A row with no input position (one made in a punctuation) could not be written down as held back.
            passThroughLeft = Math.max(0, passThroughLeft - 1);
            Accumulator single = new Accumulator(calls.length);
            single.addInPlace(calls, row);
            context.forward(new Record<>(Rows.project(row, groupBy), single, record.timestamp()));
            return;
        }
        folded++;
        held.partialOf(row, groupBy).addInPlace(calls, row);
        latestTimestamp = Math.max(latestTimestamp, record.timestamp());
        // Rows come in runs from one partition; only a partition new since the last flush is written down.
        if (metadata.partition() != lastPartition || !metadata.topic().equals(lastTopic)) {
            String partition = metadata.topic() + ":" + metadata.partition();
            if (!firstOffsets.containsKey(partition)) {
                firstOffsets.put(partition, metadata.offset());
                pending.put(HeldBackOffsets.KEY, HeldBackOffsets.encode(firstOffsets));
            }
            lastTopic = metadata.topic();
            lastPartition = metadata.partition();
        }
        if (held.groups() >= MAX_GROUPS) {
            flush(context.currentSystemTimeMs());
        }
    }

    private void maybeFlush(long now) {
        boolean quiet = folded - foldedAtLastLook < QUIET_ROWS;
        foldedAtLastLook = folded;
        if (quiet || folded >= FOLDED_ENOUGH * held.groups() || now - lastFlush >= MAX_HOLD.toMillis()) {
            flush(now);
        }
    }

    private void flush(long now) {
        lastFlush = now;
        if (held.groups() == 0 && firstOffsets.isEmpty()) {
            return;
        }
        if (folded >= QUIET_ROWS && folded < WORTHWHILE_ROWS_PER_GROUP * held.groups()) {
            passThroughLeft = PASS_THROUGH_ROWS;
        }
        // Partials restored into a task that has read nothing yet and whose stream time is not known (its offsets
        // committed without Kafka Streams' metadata) have no time of their own: the wall clock's stands in.
        long timestamp = latestTimestamp >= 0 ? latestTimestamp : context.currentSystemTimeMs();
        for (HeldBackPartialsStore.Held partial : held.drain()) {
            context.forward(new Record<>(partial.group, partial.partial, timestamp));
        }
        folded = 0;
        foldedAtLastLook = 0;
        firstOffsets.clear();
        lastTopic = null;
        pending.delete(HeldBackOffsets.KEY);
    }
}
