package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.connectors.row.RowSerde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * A view's (or an index's) store in the Kafka Streams instance that keeps it on this instance: the view's own
 * application, where the store has the plan's name, or the shared one, where it has it under the view's prefix.
 */
final class ViewStore {

    private static final Duration ROW_COUNT_TTL = Duration.ofSeconds(30);
    /** One thread counts every view's rows in turn, so counting never competes with a view for more than a core. */
    private static final ExecutorService ROW_COUNTER = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "kafkamv-row-counter");
        thread.setDaemon(true);
        return thread;
    });

    private final KafkaStreams streams;
    private final PhysicalPlan plan;
    /** The store's name in {@link #streams}; null for a job without one (a sink). */
    private final String name;
    private final ViewPartitions partitions;
    private final AtomicLong rowsCounted = new AtomicLong();
    private final AtomicLong rowsCountedAt = new AtomicLong(System.nanoTime() - ROW_COUNT_TTL.toNanos());
    private final AtomicBoolean counting = new AtomicBoolean();

    /**
     * @param prefix        what the application's names of the plan's steps and store begin with ("" alone)
     * @param topology      the application's topology, whose sub-topology keeping the store says its partitions
     * @param applicationId the application's id, which its repartition topics begin with
     */
    ViewStore(KafkaStreams streams, PhysicalPlan plan, String prefix, TopologyDescription topology, String applicationId) {
        this.streams = streams;
        this.plan = plan;
        this.name = plan.store() == null ? null : prefix + plan.store();
        this.partitions = new ViewPartitions(streams, name, plan, name == null ? java.util.Set.of()
            : ViewPartitions.sourceTopics(topology, name, applicationId));
    }

    private boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    /** An index's entries on this instance (see IndexKeys), or empty while the store is not ready. */
    Optional<ReadOnlyKeyValueStore<Bytes, byte[]>> indexEntries() {
        if (!isRunning() || plan.index() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(streams.store(StoreQueryParameters.fromNameAndType(name,
                QueryableStoreTypes.<Bytes, byte[]>keyValueStore())));
        } catch (RuntimeException notReady) {
            return Optional.empty();
        }
    }

    /** The partition of {@code key} when this instance holds it (its active task), so a get here is the answer. */
    OptionalInt partitionHeld(Object[] key, String self) {
        var metadata = streams.queryMetadataForKey(name, key, new RowSerde(plan.root().key()).serializer());
        return metadata != null && metadata.activeHost() != null
            && (metadata.activeHost().host() + ":" + metadata.activeHost().port()).equals(self)
            ? OptionalInt.of(metadata.partition()) : OptionalInt.empty();
    }

    /** The partitions of this view's rows and where they are. */
    ViewPartitions partitions() {
        return partitions;
    }

    /** The other instances that hold partitions of this view's rows, as host:port of their REST endpoint. */
    List<String> otherHosts(String self) {
        return streams.streamsMetadataForStore(name).stream()
            .map(metadata -> metadata.hostInfo().host() + ":" + metadata.hostInfo().port())
            .filter(host -> !host.equals(self))
            .distinct()
            .toList();
    }

    /**
     * The rows in this instance's share of the store as last counted, and a new count started in the
     * background when that one is older than {@link #ROW_COUNT_TTL}. RocksDB's own estimate counts
     * overwritten keys (an aggregate of 10 groups reads as tens of thousands), so we count; counting reads
     * the whole store, so a scrape never waits for it.
     */
    long counted() {
        long now = System.nanoTime();
        if (now - rowsCountedAt.get() >= ROW_COUNT_TTL.toNanos() && counting.compareAndSet(false, true)) {
            ROW_COUNTER.execute(() -> {
                try {
                    rowsCounted.set(count());
                    rowsCountedAt.set(System.nanoTime());
                } catch (RuntimeException notReady) {
                    // The store is not ready (a rebalance, a restore): keep the last count and try at the next scrape.
                } finally {
                    counting.set(false);
                }
            });
        }
        return rowsCounted.get();
    }

    private long count() {
        if (!isRunning() || name == null) {
            return 0;
        }
        return partitions.countHere();
    }
}
