package io.kafkamv.compiler.topology.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * The partials a {@link PartialAggregator} holds back, kept as live objects and written to a logged
 * store only when Kafka Streams commits. A group that folds a thousand rows between two commits is
 * then serialized once, not a thousand times: writing every row took a fifth of the stream thread's
 * time in a GROUP BY backfill, and without it the backfill runs 1.3 times as fast.
 *
 * <p>The writes must reach the changelog inside the transaction that commits the offsets of the rows
 * they hold, or a crash in between loses or doubles those rows. The one moment Kafka Streams offers
 * for that is the one it flushes its record caches in, before it commits, and it offers it only to
 * a {@link CachedStateStore}, which is why this store is one although that interface is internal to
 * Kafka Streams. ({@link StateStore#commit} comes after the transaction commits, too late.) Kafka
 * Streams is pinned; {@code RepeatedKillsIT} and {@code WholeClusterRestartIT} count every row after
 * crashes, and are what fails should an upgrade move this moment.
 */
final class HeldBackPartialsStore implements StateStore, CachedStateStore<Bytes, byte[]> {

    /** A group's values, its partial, and whether the logged store has it as it is now. */
    static final class Held {
        final Object[] group;
        final Accumulator partial;
        /** The group's key bytes, once they were needed: as the logged store and the exchange tell groups apart. */
        private Bytes key;
        private boolean changed;
        private boolean logged;

        private Held(Object[] group, Accumulator partial) {
            this.group = group;
            this.partial = partial;
        }
    }

    private final KeyValueStore<Bytes, byte[]> log;
    private final RowCodec keys;
    private final Serde<Accumulator> values;
    private final int calls;
    /**
     * By the group's values ({@link #lookupKey}), not by their key bytes: encoding every row's group took as long
     * as folding the row in. Values that differ but encode alike (an integer column holding both an Integer
     * and a Long) make two entries here; {@link #flushCache} merges them before they could overwrite each other in
     * the logged store.
     */
    private final Map<Object, Held> held = new HashMap<>();
    /** Keys of the logged store whose partials {@link #reload} merged into another's, to delete at the next flush. */
    private final List<Bytes> unlogged = new ArrayList<>();

    private HeldBackPartialsStore(KeyValueStore<Bytes, byte[]> log, AggregateStep step) {
        this.log = log;
        this.keys = new RowCodec(step.key());
        this.calls = step.aggregates().size();
        this.values = new AccumulatorSerde(calls);
    }

    static StoreBuilder<HeldBackPartialsStore> builder(String name, AggregateStep step) {
        return new Builder(name, step);
    }

    /** The partial of the group of {@code row}'s values at the {@code groupBy} positions, new if it has none yet. */
    Accumulator partialOf(Object[] row, int[] groupBy) {
        // Like lookupKey, without projecting a one-column group into an array first.
        Object lookup = groupBy.length == 1 ? single(row[groupBy[0]]) : new GroupValues(Rows.project(row, groupBy));
        Held partial = held.get(lookup);
        if (partial == null) {
            partial = new Held(lookup instanceof GroupValues values ? values.values : Rows.project(row, groupBy),
                new Accumulator(calls));
            held.put(lookup, partial);
        }
        partial.changed = true;
        return partial.partial;
    }

    private static Object lookupKey(Object[] group) {
        return group.length == 1 ? single(group[0]) : new GroupValues(group);
    }

    /** A one-column group is looked up by its value itself, unless arrays would compare by identity. */
    private static Object single(Object value) {
        return value instanceof byte[] ? new GroupValues(new Object[] {value}) : value;
    }

    /** A group's values, equal by content. */
    private record GroupValues(Object[] values) {
        @Override
        public boolean equals(Object other) {
            return other instanceof GroupValues group && Arrays.deepEquals(values, group.values);
        }

        @Override
        public int hashCode() {
            return Arrays.deepHashCode(values);
        }
    }

    private Bytes keyOf(Held partial) {
        if (partial.key == null) {
            partial.key = Bytes.wrap(keys.encode(partial.group));
        }
        return partial.key;
    }

    int groups() {
        return held.size();
    }

    /** Hands over every held-back partial and forgets them, here and in the logged store. */
    List<Held> drain() {
        List<Held> drained = new ArrayList<>(held.values());
        for (Held partial : drained) {
            if (partial.logged) {
                log.delete(keyOf(partial));
            }
        }
        unlogged.forEach(log::delete);
        unlogged.clear();
        held.clear();
        return drained;
    }

    /** Called by the processor's init, after restoration: the partials the last commit held back. */
    void reload() {
        held.clear();
        unlogged.clear();
        try (KeyValueIterator<Bytes, byte[]> all = log.all()) {
            all.forEachRemaining(entry -> {
                Held partial = new Held(keys.decode(entry.key.get()), values.deserializer().deserialize(null, entry.value));
                partial.key = entry.key;
                partial.logged = true;
                Held sameValues = held.put(lookupKey(partial.group), partial);
                if (sameValues != null) {
                    // Two keys for values that compare equal (NaNs of different bits, or a log of an older version):
                    // one partial holds both, written under one key at the next flush, the other key deleted then.
                    merge(sameValues, partial);
                    unlogged.add(partial.key);
                }
            });
        }
    }

    @Override
    public void flushCache() {
        Map<Bytes, Held> byKey = new HashMap<>();
        for (var entries = held.values().iterator(); entries.hasNext(); ) {
            Held partial = entries.next();
            Held sameKey = byKey.putIfAbsent(keyOf(partial), partial);
            if (sameKey != null) {
                // Written under one key, the second would overwrite the first: one partial holds both from now on.
                entries.remove();
                byKey.put(sameKey.key, merge(sameKey, partial));
            }
        }
        unlogged.forEach(log::delete);
        unlogged.clear();
        for (Held partial : byKey.values()) {
            if (partial.changed) {
                log.put(partial.key, values.serializer().serialize(null, partial.partial));
                partial.changed = false;
                partial.logged = true;
            }
        }
    }

    /**
     * One partial in place of two that must share a key: {@code kept}'s group and key, both's rows, to be written
     * again. It takes {@code kept}'s place in the map; {@code other}'s entry, if it has another, is the caller's.
     */
    private Held merge(Held kept, Held other) {
        Held merged = new Held(kept.group, kept.partial.merged(other.partial));
        merged.key = kept.key;
        merged.changed = true;
        merged.logged = kept.logged || other.logged;
        held.put(lookupKey(kept.group), merged);
        return merged;
    }

    /** Kafka Streams calls this when it turns the task into a standby: the processor is closed, and what a standby has is the log. */
    @Override
    public void clearCache() {
        held.clear();
        unlogged.clear();
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<Bytes, byte[]> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        log.commit(changelogOffsets);
    }

    @Override
    public String name() {
        return log.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        held.clear();
        unlogged.clear();
        log.init(context, root);
    }

    @Override
    public void close() {
        held.clear();
        unlogged.clear();
        log.close();
    }

    @Override
    public boolean persistent() {
        return log.persistent();
    }

    @Override
    public boolean isOpen() {
        return log.isOpen();
    }

    @Override
    public Position getPosition() {
        return log.getPosition();
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        return log.committedOffset(partition);
    }

    @Override
    public long approximateNumUncommittedBytes() {
        return log.approximateNumUncommittedBytes();
    }

    /** Logged like any store (the changelog is what survives a crash), never cached: the objects are the cache. */
    private static final class Builder implements StoreBuilder<HeldBackPartialsStore> {
        private final AggregateStep step;
        private StoreBuilder<KeyValueStore<Bytes, byte[]>> log;

        Builder(String name, AggregateStep step) {
            this.step = step;
            this.log = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray());
        }

        @Override
        public StoreBuilder<HeldBackPartialsStore> withCachingEnabled() {
            throw new UnsupportedOperationException("the held-back partials are their own cache");
        }

        @Override
        public StoreBuilder<HeldBackPartialsStore> withCachingDisabled() {
            return this;
        }

        @Override
        public StoreBuilder<HeldBackPartialsStore> withLoggingEnabled(Map<String, String> config) {
            log = log.withLoggingEnabled(config);
            return this;
        }

        @Override
        public StoreBuilder<HeldBackPartialsStore> withLoggingDisabled() {
            log = log.withLoggingDisabled();
            return this;
        }

        @Override
        public HeldBackPartialsStore build() {
            KeyValueStore<Bytes, byte[]> store = log.build();
            if (store.persistent()) {
                // Kafka Streams wraps a persistent store in one that is no CachedStateStore: flushCache would never come.
                throw new IllegalStateException("the held-back partials' log must be an in-memory store");
            }
            return new HeldBackPartialsStore(store, step);
        }

        @Override
        public Map<String, String> logConfig() {
            return log.logConfig();
        }

        @Override
        public boolean loggingEnabled() {
            return log.loggingEnabled();
        }

        @Override
        public String name() {
            return log.name();
        }
    }
}
