package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

import io.kafkamv.compiler.runtime.IndexKeys;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.Job;
import io.kafkamv.service.auth.BearerTokens;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads of the rows views and indexes hold: this instance's share from the local stores of the jobs
 * it runs, the other instances' shares from their internal REST endpoints.
 */
public final class ViewReads {

    private static final Logger LOG = LoggerFactory.getLogger(ViewReads.class);

    /** Key types whose values are equal exactly when their encoded bytes are. */
    private static final Set<SqlType> EXACT_KEYS = java.util.EnumSet.of(SqlType.BOOLEAN, SqlType.SMALLINT,
        SqlType.INTEGER, SqlType.BIGINT, SqlType.VARCHAR);

    private final LocalJobs local;
    private final Counter rowsFound;
    private final Counter noRows;
    private final Counter answeredElsewhere;
    private final String applicationServer;
    private final RemoteViewRows remoteRows;
    private final Admin admin;
    private final java.util.function.LongFunction<Optional<Job>> jobs;

    ViewReads(LocalJobs local, String applicationServer, BearerTokens tokens, Admin admin,
              java.util.function.LongFunction<Optional<Job>> jobs, MeterRegistry registry) {
        this.local = local;
        java.util.function.Function<String, Counter> lookups = answer -> Counter.builder("kafkamv.view.key.lookups")
            .description("Reads of one view row by its key, by answer: the row or none from the stores here, or "
                + "elsewhere (the query reads the whole view: partitions elsewhere or not ready, or inexact key types)")
            .tag("answer", answer).register(registry);
        this.rowsFound = lookups.apply("row");
        this.noRows = lookups.apply("none");
        this.answeredElsewhere = lookups.apply("elsewhere");
        this.jobs = jobs;
        this.admin = admin;
        this.applicationServer = applicationServer;
        this.remoteRows = new RemoteViewRows(tokens);
    }

    /** Whether the job started over with empty state ({@link Job#withGeneration}) and holds part of its rows. */
    private boolean rebuilding(long jobId) {
        return jobs.apply(jobId).map(Job::rebuilding).orElse(false);
    }

    private void refuseWhileRebuilding(long jobId) {
        if (rebuilding(jobId)) {
            throw new IncompleteReadException("it is being built again from its sources: its state could not be "
                + "resumed (its consumer group's offsets expired while no instance ran it, or a transaction Kafka left "
                + "open held it; the log says which)", "it is readable again once it has read its sources again; the "
                + "log says when", null);
        }
    }

    /**
     * A scan of all rows of a job's view across the cluster: every partition once, from the instance that holds it
     * active and ready (this one from its stores, the others from their REST endpoints). While partitions move or
     * restore, it tries again until {@code timeout}, then throws {@link IncompleteReadException}: never part of the
     * rows. Empty when the job does not run on this instance. The caller closes the scan.
     *
     * @param columns the indexes of the columns to read, ascending; null for every column
     * @param filter what rows of those columns this instance's partitions may leave out as they are read; null for none
     */
    public Optional<ViewScan> openViewRows(long jobId, int[] columns, Predicate<Object[]> filter,
                                           Duration timeout) throws InterruptedException {
        refuseWhileRebuilding(jobId);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<LocalView> runtime = local.view(jobId);
            if (runtime.isEmpty()) {
                return Optional.empty();
            }
            try {
                return Optional.of(openEveryPartition(jobId, runtime.get(), columns, filter));
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

    private ViewScan openEveryPartition(long jobId, LocalView runtime, int[] columns,
                                        Predicate<Object[]> filter) throws InterruptedException {
        if (!runtime.isRunning()) {
            throw new IllegalStateException("its Kafka Streams instance here is " + runtime.state());
        }
        ViewPartitions partitions = runtime.rows().partitions();
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
            new RowCodec(runtime.plan().schema().columns()), columns, filter, "view-scan-" + jobId);
    }

    /**
     * One row of a job's view by key, or none, when this instance can tell; empty otherwise (also while the view is
     * being built again), so the caller takes the general way. The key's hash names its partition only when the view's
     * input is partitioned by the key as kafka-mv writes it: a source written by another producer, or a join, whose
     * rows stay where their join key sent them, are not. So a row not found there is looked for in every other
     * partition, when all of them are here ({@link #inEveryPartitionHere}).
     */
    public Optional<Optional<Object[]>> viewRowByKey(long jobId, Object[] key) {
        Optional<Optional<Object[]>> answer = rowByKey(jobId, key);
        (answer.isEmpty() ? answeredElsewhere : answer.get().isPresent() ? rowsFound : noRows).increment();
        return answer;
    }

    private Optional<Optional<Object[]>> rowByKey(long jobId, Object[] key) {
        Optional<LocalView> runtime = local.view(jobId);
        if (runtime.isEmpty() || !runtime.get().isRunning() || rebuilding(jobId)) {
            return Optional.empty();
        }
        try {
            OptionalInt partition = runtime.get().rows().partitionHeld(key, applicationServer);
            Object[] row = partition.isPresent() ? runtime.get().rows().partitions().get(partition.getAsInt(), key) : null;
            return row != null ? Optional.of(Optional.of(row)) : inEveryPartitionHere(runtime.get(), key);
        } catch (InvalidStateStoreException | IllegalStateException notReady) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * The key's row from whichever partition has it, or none, when every partition of the view is active and ready
     * here and its key's columns are equal exactly when their bytes are (not so numerics, {@code 1.0 = 1.00}, nor
     * floats, {@code -0.0 = 0.0}); empty otherwise. A row the view has not yet got was the general way's full scan of
     * the view, each time a client looked for it (issue 21: 55% of the service's CPU samples, with clients waiting
     * for rows they had just inserted).
     */
    private Optional<Optional<Object[]>> inEveryPartitionHere(LocalView runtime, Object[] key) throws InterruptedException {
        if (!runtime.plan().root().key().stream().allMatch(column -> EXACT_KEYS.contains(column.type()))) {
            return Optional.empty();
        }
        ViewPartitions partitions = runtime.rows().partitions();
        Set<Integer> here = partitions.byHost().getOrDefault(applicationServer, Set.of());
        if (here.size() < partitions.count(admin)) {
            return Optional.empty();
        }
        for (int partition : here) {
            Object[] row = partitions.get(partition, key);
            if (row != null) {
                return Optional.of(Optional.of(row));
            }
        }
        return Optional.of(Optional.empty());
    }

    /**
     * The rows an index keeps for these values of its columns, across the cluster. Empty (take the general way) while
     * it is being built again, or when the
     * index does not run here or its local store is not ready within {@code timeout}.
     */
    public Optional<List<Object[]>> indexRows(long jobId, Object[] values, Duration timeout) {
        Optional<LocalView> indexed = local.view(jobId);
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
            for (String host : indexed.get().rows().otherHosts(applicationServer)) {
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
        return local.view(jobId).flatMap(view -> view.rows().indexEntries()).map(store -> {
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
        Optional<LocalView> runtime = local.view(jobId).filter(LocalView::isRunning);
        if (runtime.isEmpty()) {
            return Optional.empty();
        }
        if (partitions == null) {
            partitions = runtime.get().rows().partitions().byHost().getOrDefault(applicationServer, Set.of());
        }
        List<byte[]> rows = new ArrayList<>();
        try (PartitionReads<byte[]> scan = new PartitionReads<>(runtime.get().rows().partitions().open(partitions),
                (entry, store) -> store.encodedRow(entry), "view-rows-" + jobId)) {
            scan.forEachRemaining(rows::add);
        } catch (InvalidStateStoreException | IllegalStateException | IncompleteReadException notReady) {
            return Optional.empty();
        }
        return Optional.of(rows);
    }
}
