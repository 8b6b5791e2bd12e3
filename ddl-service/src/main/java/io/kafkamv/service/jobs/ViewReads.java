package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

import io.kafkamv.compiler.runtime.IndexKeys;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.jobstore.Job;
import io.kafkamv.service.auth.BearerTokens;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads of the rows views and indexes hold: this instance's share from the local stores of the jobs
 * it runs, the other instances' shares from their internal REST endpoints.
 */
public final class ViewReads {

    private static final Logger LOG = LoggerFactory.getLogger(ViewReads.class);

    private final LocalJobs local;
    private final String applicationServer;
    private final RemoteViewRows remoteRows;
    private final Admin admin;
    private final java.util.function.LongFunction<Optional<Job>> jobs;

    ViewReads(LocalJobs local, String applicationServer, BearerTokens tokens, Admin admin,
              java.util.function.LongFunction<Optional<Job>> jobs) {
        this.local = local;
        this.jobs = jobs;
        this.admin = admin;
        this.applicationServer = applicationServer;
        this.remoteRows = new RemoteViewRows(tokens);
    }

    /** The rows of a job's view on this instance, if it runs here and its store is ready. */
    public Optional<ReadOnlyKeyValueStore<Object[], Object[]>> viewStore(long jobId) {
        return local.get(jobId).flatMap(ViewRuntime::store);
    }

    /** Whether the job started over with empty state ({@link Job#withGeneration}) and holds part of its rows. */
    private boolean rebuilding(long jobId) {
        return jobs.apply(jobId).map(Job::rebuilding).orElse(false);
    }

    private void refuseWhileRebuilding(long jobId) {
        if (rebuilding(jobId)) {
            throw new IncompleteReadException("it is being built again: its consumer group's offsets expired while no "
                + "instance ran it", "it is readable again once it has read its sources again; the log says when", null);
        }
    }

    /** Like {@link #viewStore}, waiting up to {@code timeout} for a store that is restoring after a restart. */
    public Optional<ReadOnlyKeyValueStore<Object[], Object[]>> awaitViewStore(long jobId, Duration timeout)
        throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<ReadOnlyKeyValueStore<Object[], Object[]>> store = viewStore(jobId);
        while (store.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            store = viewStore(jobId);
        }
        return store;
    }

    /**
     * A scan of all rows of a job's view across the cluster: every partition once, from the instance that holds it
     * active and ready (this one from its stores, the others from their REST endpoints). While partitions move or
     * restore, it tries again until {@code timeout}, then throws {@link IncompleteReadException}: never part of the
     * rows. Empty when the job does not run on this instance. The caller closes the scan.
     */
    public Optional<ViewScan> openViewRows(long jobId, Duration timeout) throws InterruptedException {
        refuseWhileRebuilding(jobId);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<ViewRuntime> runtime = local.get(jobId);
            if (runtime.isEmpty()) {
                return Optional.empty();
            }
            try {
                return Optional.of(openEveryPartition(jobId, runtime.get()));
            } catch (InvalidStateStoreException | IllegalStateException moving) {
                if (System.nanoTime() > deadline) {
                    throw new IncompleteReadException("could not read every partition of the view within "
                        + timeout.toSeconds() + " s: " + moving.getMessage(), "its partitions are moving between "
                        + "instances or restoring (a restart or a scale-out); try again shortly", moving);
                }
                LOG.debug("Rows of job {} moved while read; reading again: {}", jobId, moving.toString());
                Thread.sleep(100);
            }
        }
    }

    private ViewScan openEveryPartition(long jobId, ViewRuntime runtime) throws InterruptedException {
        if (!runtime.isRunning()) {
            throw new IllegalStateException("its Kafka Streams instance here is " + runtime.state());
        }
        ViewPartitions partitions = runtime.partitions();
        int count = partitions.count(admin);
        Map<String, Set<Integer>> byHost = partitions.byHost();
        Set<Integer> covered = new TreeSet<>();
        byHost.values().forEach(covered::addAll);
        if (covered.size() < count) {
            Set<Integer> missing = new TreeSet<>();
            for (int partition = 0; partition < count; partition++) {
                if (!covered.contains(partition)) {
                    missing.add(partition);
                }
            }
            throw new IllegalStateException("no instance holds partitions " + missing + " now");
        }
        // The other instances' rows first: a failure there leaves nothing open here.
        List<byte[]> remote = new ArrayList<>();
        for (Map.Entry<String, Set<Integer>> host : byHost.entrySet()) {
            if (!host.getKey().equals(applicationServer) && !host.getValue().isEmpty()) {
                remote.addAll(remoteRows.fetch(host.getKey(), jobId, host.getValue()));
            }
        }
        return new ViewScan(partitions.open(byHost.getOrDefault(applicationServer, Set.of())), remote,
            new RowCodec(runtime.plan().schema().columns()));
    }

    /**
     * One row of a job's view by key, when this instance finds it in the key's partition, held here and ready:
     * empty otherwise (also while the view is being built again), so the caller takes the general way. A row not found there is not taken as "no row": a
     * view's input may be partitioned by other bytes than its key's (a source written by another producer), so
     * only a read of every partition can tell that the key is absent.
     */
    public Optional<Optional<Object[]>> viewRowByKey(long jobId, Object[] key) {
        Optional<ViewRuntime> runtime = local.get(jobId);
        if (runtime.isEmpty() || !runtime.get().isRunning() || rebuilding(jobId)) {
            return Optional.empty();
        }
        try {
            OptionalInt partition = runtime.get().partitionHeld(key, applicationServer);
            if (partition.isEmpty()) {
                return Optional.empty();
            }
            return Optional.ofNullable(runtime.get().partitions().get(partition.getAsInt(), key)).map(Optional::of);
        } catch (InvalidStateStoreException | IllegalStateException notReady) {
            return Optional.empty();
        }
    }

    /**
     * The rows an index keeps for these values of its columns, across the cluster. Empty (take the general way) while
     * it is being built again, or when the
     * index does not run here or its local store is not ready within {@code timeout}.
     */
    public Optional<List<Object[]>> indexRows(long jobId, Object[] values, Duration timeout) {
        Optional<ViewRuntime> indexed = local.get(jobId);
        if (indexed.isEmpty() || rebuilding(jobId)) {
            return Optional.empty();
        }
        byte[] prefix = new IndexKeys(indexed.get().plan()).prefix(values);
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<List<byte[]>> here = localIndexRows(jobId, prefix);
        try {
            while (here.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
                here = localIndexRows(jobId, prefix);
            }
            if (here.isEmpty()) {
                return Optional.empty();
            }
            List<byte[]> encoded = new ArrayList<>(here.get());
            for (String host : indexed.get().otherHosts(applicationServer)) {
                encoded.addAll(remoteRows.fetchIndex(host, jobId, prefix));
            }
            RowCodec codec = new RowCodec(indexed.get().plan().schema().columns());
            return Optional.of(encoded.stream().map(codec::decode).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** This instance's rows of an index under a prefix, encoded, for the instance that looks them up. */
    public Optional<List<byte[]>> localIndexRows(long jobId, byte[] prefix) {
        return local.get(jobId).flatMap(ViewRuntime::indexStore).map(store -> {
            List<byte[]> rows = new ArrayList<>();
            try (var iterator = store.prefixScan(Bytes.wrap(prefix), new BytesSerializer())) {
                iterator.forEachRemaining(entry -> rows.add(entry.value));
            }
            return rows;
        });
    }

    /**
     * This instance's rows of these partitions of a job's view (null: all it holds), encoded, for the instance
     * that reads the whole view; empty unless every one of them is active and ready here.
     */
    public Optional<List<byte[]>> localViewRows(long jobId, Set<Integer> partitions) {
        Optional<ViewRuntime> runtime = local.get(jobId).filter(ViewRuntime::isRunning);
        if (runtime.isEmpty()) {
            return Optional.empty();
        }
        if (partitions == null) {
            partitions = runtime.get().partitions().byHost().getOrDefault(applicationServer, Set.of());
        }
        RowCodec codec = new RowCodec(runtime.get().plan().schema().columns());
        List<byte[]> rows = new ArrayList<>();
        try (ViewScan scan = new ViewScan(runtime.get().partitions().open(partitions), List.of(), codec)) {
            scan.forEachRemaining(row -> rows.add(codec.encode(row)));
        } catch (InvalidStateStoreException | IllegalStateException | IncompleteReadException notReady) {
            return Optional.empty();
        }
        return Optional.of(rows);
    }
}
