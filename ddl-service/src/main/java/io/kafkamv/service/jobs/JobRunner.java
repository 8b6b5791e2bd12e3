package io.kafkamv.service.jobs;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.topology.IndexKeys;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.Job;
import io.kafkamv.service.auth.BearerTokens;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.ObjectStatus;
import io.kafkamv.service.tables.NewTopics;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes this instance do what the job store says: runs every job that should run, stops and
 * cleans up every job being cancelled, and moves backfills forward to CREATED. Every instance runs
 * one; Kafka Streams spreads each job's partitions over the instances that run it.
 *
 * <p>All work happens on one thread, woken by job store changes and once a second, so the
 * reconciliation never races with itself. Every step is idempotent: after a crash the next start
 * simply does the rest.
 */
public final class JobRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);

    private final JobStore store;
    private final Properties clientProperties;
    private final Path stateDir;
    private final Admin admin;
    private final NewTopics newTopics;
    private final int viewPartitions;
    private final MeterRegistry metrics;
    private final String applicationServer;
    private final String instanceId;
    private final RemoteViewRows remoteRows;
    private final Map<Long, ViewRuntime> runtimes = new ConcurrentHashMap<>();
    /** Since when each backfill has stood at the same offsets, to restart one that stalls. */
    private final Map<Long, Stall> stalls = new ConcurrentHashMap<>();
    private static final Duration STALL_LIMIT = Duration.ofSeconds(60);
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "job-runner");
        thread.setDaemon(true);
        return thread;
    });

    public JobRunner(JobStore store, Properties clientProperties, Path stateDir, MeterRegistry metrics,
                     String applicationServer, String instanceId, int viewPartitions, short replicationFactor,
                     BearerTokens tokens) {
        this.store = store;
        this.instanceId = instanceId;
        this.applicationServer = applicationServer;
        this.remoteRows = new RemoteViewRows(tokens);
        this.metrics = metrics;
        this.clientProperties = clientProperties;
        this.stateDir = stateDir;
        this.admin = Admin.create(clientProperties);
        this.newTopics = new NewTopics(admin, replicationFactor);
        this.viewPartitions = viewPartitions;
    }

    public void start() {
        store.addListener(() -> loop.execute(this::reconcileSafely));
        // Often enough that a view becomes visible within a fraction of a second of catching up.
        loop.scheduleWithFixedDelay(this::reconcileSafely, 0, 250, TimeUnit.MILLISECONDS);
        loop.scheduleWithFixedDelay(this::throttleBackfills, 100, 100, TimeUnit.MILLISECONDS);
    }

    private void throttleBackfills() {
        runtimes.forEach((id, runtime) -> store.job(id).ifPresent(job -> {
            try {
                runtime.throttle(job);
            } catch (RuntimeException e) {
                LOG.debug("Throttling job {} failed: {}", id, e.toString());
            }
        }));
    }

    /** The rows of a job's view on this instance, if it runs here and its store is ready. */
    public Optional<ReadOnlyKeyValueStore<Object[], Object[]>> viewStore(long jobId) {
        ViewRuntime runtime = runtimes.get(jobId);
        return runtime == null ? Optional.empty() : runtime.store();
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
     * All rows of a job's view across the cluster: this instance's partitions from its store, the
     * others' from their REST endpoints. Empty while the local store is not ready within {@code timeout}.
     */
    public Optional<List<Object[]>> viewRows(long jobId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<ReadOnlyKeyValueStore<Object[], Object[]>> local =
                awaitViewStore(jobId, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            ViewRuntime runtime = runtimes.get(jobId);
            if (local.isEmpty() || runtime == null) {
                return Optional.empty();
            }
            try {
                List<Object[]> rows = new java.util.ArrayList<>();
                try (var iterator = local.get().all()) {
                    iterator.forEachRemaining(entry -> rows.add(entry.value));
                }
                var codec = new io.kafkamv.connectors.row.RowCodec(runtime.plan().schema().columns());
                for (String host : runtime.otherHosts(applicationServer)) {
                    for (byte[] encoded : remoteRows.fetch(host, jobId)) {
                        rows.add(codec.decode(encoded));
                    }
                }
                return Optional.of(rows);
            } catch (InvalidStateStoreException | IllegalStateException moving) {
                // A rebalance moved partitions (here or on another instance) while they were read:
                // read them again where they are now, until the caller's time is up.
                if (System.nanoTime() > deadline) {
                    throw moving;
                }
                LOG.debug("Rows of job {} moved while read; reading again: {}", jobId, moving.toString());
                Thread.sleep(100);
            }
        }
    }

    /**
     * One row of a job's view by key, when this instance holds that key: empty when the answer is
     * elsewhere (or the store is not ready), so the caller can take the general way.
     */
    public Optional<Optional<Object[]>> viewRowByKey(long jobId, Object[] key) {
        ViewRuntime runtime = runtimes.get(jobId);
        Optional<ReadOnlyKeyValueStore<Object[], Object[]>> store = viewStore(jobId);
        if (runtime == null || store.isEmpty() || !runtime.holdsKey(key, applicationServer)) {
            return Optional.empty();
        }
        return Optional.of(Optional.ofNullable(store.get().get(key)));
    }

    /**
     * The rows an index keeps for these values of its columns, across the cluster. Empty when the
     * index does not run here or its local store is not ready within {@code timeout}.
     */
    public Optional<List<Object[]>> indexRows(long jobId, Object[] values, Duration timeout) {
        ViewRuntime indexed = runtimes.get(jobId);
        if (indexed == null) {
            return Optional.empty();
        }
        byte[] prefix = new IndexKeys(indexed.plan()).prefix(values);
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<List<byte[]>> local = localIndexRows(jobId, prefix);
        try {
            while (local.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
                local = localIndexRows(jobId, prefix);
            }
            if (local.isEmpty()) {
                return Optional.empty();
            }
            List<byte[]> encoded = new java.util.ArrayList<>(local.get());
            for (String host : indexed.otherHosts(applicationServer)) {
                encoded.addAll(remoteRows.fetchIndex(host, jobId, prefix));
            }
            var codec = new io.kafkamv.connectors.row.RowCodec(indexed.plan().schema().columns());
            return Optional.of(encoded.stream().map(codec::decode).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** This instance's rows of an index under a prefix, encoded, for the instance that looks them up. */
    public Optional<List<byte[]>> localIndexRows(long jobId, byte[] prefix) {
        ViewRuntime runtime = runtimes.get(jobId);
        return runtime == null ? Optional.empty() : runtime.indexStore().map(store -> {
            List<byte[]> rows = new java.util.ArrayList<>();
            try (var iterator = store.prefixScan(org.apache.kafka.common.utils.Bytes.wrap(prefix),
                new org.apache.kafka.common.serialization.BytesSerializer())) {
                iterator.forEachRemaining(entry -> rows.add(entry.value));
            }
            return rows;
        });
    }

    /** This instance's rows of a job's view, encoded, for other instances that read the whole view. */
    public Optional<List<byte[]>> localViewRows(long jobId) {
        ViewRuntime runtime = runtimes.get(jobId);
        return viewStore(jobId).map(store -> {
            var codec = new io.kafkamv.connectors.row.RowCodec(runtime.plan().schema().columns());
            List<byte[]> rows = new java.util.ArrayList<>();
            try (var iterator = store.all()) {
                iterator.forEachRemaining(entry -> rows.add(codec.encode(entry.value)));
            }
            return rows;
        });
    }

    /**
     * Waits until every given job has processed its sources up to their current end, so that
     * writes acknowledged before the call are visible in the views.
     */
    public void awaitCaughtUp(Collection<Job> jobs, Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Job job : jobs) {
            Map<String, Long> end = Offsets.end(admin, Offsets.topicsOf(job.targetOffsets()));
            while (!caughtUp(job, end)) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("view of job " + job.id() + " did not catch up within " + timeout);
                }
                Thread.sleep(50);
            }
        }
    }

    /**
     * True when the job has processed its sources up to {@code targets} and drained its own
     * repartition topics: committed source offsets alone only say that the first sub-topology
     * is done, not the aggregations behind a repartition.
     */
    private boolean caughtUp(Job job, Map<String, Long> targets) {
        Map<TopicPartition, OffsetAndMetadata> committed = committedOffsets(job);
        boolean sourcesDone = BackfillProgress.of(job.startOffsets(), targets, committed).done();
        if (!sourcesDone) {
            return false;
        }

        String applicationId = ViewRuntime.applicationId(job.id());
        try {
            Set<String> topics = admin.listTopics().names().get(10, TimeUnit.SECONDS);
            // Held back first, exchanges after: partials flushed in between are then in the exchanges' ends,
            // which the offsets committed before do not cover yet, so they are waited for.
            if (!nothingHeldBack(job, targets, topics)) {
                return false;
            }
            List<String> repartitionTopics = topics.stream()
                .filter(topic -> topic.startsWith(applicationId + "-") && topic.endsWith("-repartition"))
                .toList();
            Map<String, Long> repartitionEnds = repartitionTopics.isEmpty() ? Map.of() : Offsets.end(admin, repartitionTopics);
            boolean drained = repartitionEnds.entrySet().stream()
                .allMatch(entry -> {
                    OffsetAndMetadata commit = committed.get(BackfillProgress.parse(entry.getKey()));
                    return entry.getValue() == 0 || (commit != null && commit.offset() >= entry.getValue());
                });
            return drained && jdbcSinkCaughtUp(job);
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Whether the job's partial aggregates (see {@link HeldBackPartials}) hold back no record before
     * {@code targets} on its sources: the committed offsets count such records as read although the
     * aggregates do not have them yet. Records held back from an exchange are always waited for.
     */
    private boolean nothingHeldBack(Job job, Map<String, Long> targets, Set<String> topics)
            throws ExecutionException, InterruptedException, TimeoutException {
        String applicationId = ViewRuntime.applicationId(job.id());
        List<String> changelogs = topics.stream()
            .filter(topic -> HeldBackPartials.isChangelog(topic, applicationId))
            .toList();
        try {
            return HeldBackPartials.read(admin, clientProperties, changelogs).entrySet().stream().allMatch(heldBack -> {
                String input = heldBack.getKey();
                if (!targets.containsKey(input)) {
                    // An exchange's partition, or a source partition added since the job began (nothing to wait for).
                    return !input.startsWith(applicationId + "-");
                }
                return heldBack.getValue() >= targets.get(input);
            });
        } catch (org.apache.kafka.common.KafkaException | IllegalStateException e) {
            LOG.debug("Job {}: cannot read its held-back partials yet: {}", job.id(), e.toString());
            return false;
        }
    }

    /** For a JDBC sink, whether its table has every change of its topic; true for other jobs. */
    private boolean jdbcSinkCaughtUp(Job job) throws ExecutionException, InterruptedException, TimeoutException {
        String topic = job.plan() == null || !job.plan().path("sink").has("jdbc") ? null
            : job.plan().path("sink").path("topic").asText();
        if (topic == null) {
            return true;
        }
        Map<TopicPartition, OffsetAndMetadata> written = admin.listConsumerGroupOffsets(ViewRuntime.jdbcGroupId(job.id()))
            .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        return Offsets.end(admin, List.of(topic)).entrySet().stream().allMatch(entry -> {
            OffsetAndMetadata commit = written.get(BackfillProgress.parse(entry.getKey()));
            return entry.getValue() == 0 || (commit != null && commit.offset() >= entry.getValue());
        });
    }

    /**
     * Source records the job's consumer group has not committed yet, over every instance: how far the
     * object trails its sources.
     */
    public long lag(Job job) throws InterruptedException, ExecutionException, TimeoutException {
        List<String> sources = PlanJson.fromTree(job.plan()).sourceTopics();
        Map<TopicPartition, OffsetAndMetadata> committed = admin
            .listConsumerGroupOffsets(ViewRuntime.applicationId(job.id()))
            .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        Map<String, Long> start = Offsets.start(admin, sources);
        long lag = 0;
        for (Map.Entry<String, Long> end : Offsets.end(admin, sources).entrySet()) {
            OffsetAndMetadata commit = committed.get(BackfillProgress.parse(end.getKey()));
            long position = commit == null ? start.getOrDefault(end.getKey(), 0L) : commit.offset();
            lag += Math.max(0, end.getValue() - position);
        }
        return lag;
    }

    /** The share of every object whose job runs on this instance. */
    public List<LocalViewStats> localStats() {
        return runtimes.values().stream().map(ViewRuntime::stats).toList();
    }

    private void reconcileSafely() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            LOG.warn("Reconciling jobs failed; retrying shortly", e);
        }
    }

    private void reconcile() {
        Map<Long, Job> jobs = store.jobs().stream().collect(Collectors.toMap(Job::id, job -> job));
        for (Job job : jobs.values()) {
            switch (job.status()) {
                case CREATING, CREATED -> ensureRunning(job);
                case CANCELLING -> cleanUp(job);
                case FAILED -> stop(job.id(), false);
            }
        }
        for (Long id : List.copyOf(runtimes.keySet())) {
            if (!jobs.containsKey(id)) {
                stop(id, true);
            }
        }
        for (Job job : jobs.values()) {
            if (job.status() == JobStatus.CREATING && runtimes.containsKey(job.id())) {
                trackBackfill(job);
            }
        }
        stalls.keySet().removeIf(id -> !jobs.containsKey(id) || jobs.get(id).status() != JobStatus.CREATING);
    }

    private void ensureRunning(Job job) {
        ViewRuntime runtime = runtimes.get(job.id());
        if (runtime != null) {
            runtime.failure().ifPresent(failure -> {
                LOG.error("Job {} ({}) failed", job.id(), job.objectName(), failure);
                store.put(job.withStatus(JobStatus.FAILED, failure.toString()));
            });
            return;
        }
        try {
            PhysicalPlan plan = PlanJson.fromTree(job.plan());
            if (plan.sink() == null && plan.index() == null) {
                newTopics.ensure(plan.outputTopic(), viewPartitions, true);
            }
            seedStartOffsets(job, plan);
            runtimes.put(job.id(), ViewRuntime.start(job, plan, clientProperties, stateDir, metrics, applicationServer,
                instanceId));
            LOG.info("Job {} ({}) started on this instance, status {}", job.id(), job.objectName(), job.status());
        } catch (RuntimeException e) {
            LOG.error("Job {} ({}) cannot start", job.id(), job.objectName(), e);
            store.put(job.withStatus(JobStatus.FAILED, "cannot start: " + e.getMessage()));
        }
    }

    /**
     * A job over a source that starts late (startup mode latest or timestamp) starts where its record
     * says, not at the beginning: its group's offsets are set before its first start. Once any
     * instance has started the job, its committed offsets rule and this does nothing. Other jobs are
     * left alone: a group made before its members join changed how Kafka Streams first spread the
     * tasks (all on one of two instances in JobControlIT).
     */
    private void seedStartOffsets(Job job, PhysicalPlan plan) {
        if (!Offsets.startsLate(plan) || !committedOffsets(job).isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> start = new java.util.HashMap<>();
        job.startOffsets().forEach((partition, offset) -> start.put(BackfillProgress.parse(partition),
            new OffsetAndMetadata(offset)));
        try {
            admin.alterConsumerGroupOffsets(ViewRuntime.applicationId(job.id()), start).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // Another instance started the job meanwhile, having set the same offsets.
            LOG.debug("Job {}: start offsets not set here: {}", job.id(), e.toString());
        }
    }

    private void trackBackfill(Job job) {
        BackfillProgress progress = BackfillProgress.of(job.startOffsets(), job.targetOffsets(), committedOffsets(job));
        ViewRuntime runtime = runtimes.get(job.id());
        if (progress.done() && runtime.isRunning() && caughtUp(job, job.targetOffsets())) {
            store.object(job.objectName())
                .filter(entry -> entry.jobId() == job.id())
                .ifPresent(entry -> store.put(entry.withStatus(ObjectStatus.CREATED)));
            store.put(job.withProgress(progress.consumed(), 1.0).withStatus(JobStatus.CREATED, null));
        } else {
            if (progress.fraction() > job.progress() + 1e-4) {
                store.put(job.withProgress(progress.consumed(), progress.fraction()));
                if ((int) (progress.fraction() * 10) > (int) (job.progress() * 10)) {
                    LOG.info("Job {} ({}) backfilled {}% (Kafka Streams {})", job.id(), job.objectName(),
                        (int) (progress.fraction() * 100), runtime.state());
                }
            }
            restartIfStalled(job, progress, runtime);
        }
    }

    /**
     * Restarts this instance's Kafka Streams instance of a job whose backfill has not moved for
     * {@link #STALL_LIMIT} although nothing holds it back. A job once accepted must finish; this
     * is the last resort against a Streams instance that stops making progress (seen once in CI:
     * tasks re-created after an unclean restart while the backfill throttle paused them never resumed).
     */
    private void restartIfStalled(Job job, BackfillProgress progress, ViewRuntime runtime) {
        long now = System.nanoTime();
        Stall last = stalls.get(job.id());
        if (last == null || !last.consumed().equals(progress.consumed()) || job.rateLimit() == 0) {
            stalls.put(job.id(), new Stall(progress.consumed(), now));
            return;
        }
        if (now - last.since() > STALL_LIMIT.toNanos()) {
            LOG.warn("Job {} ({}) made no backfill progress for {} s though nothing holds it back (Kafka Streams "
                + "state {}); restarting it on this instance", job.id(), job.objectName(), STALL_LIMIT.toSeconds(),
                runtime.state());
            stalls.remove(job.id());
            stop(job.id(), false);
        }
    }

    private record Stall(Map<String, Long> consumed, long since) {
    }

    /** Stops the job everywhere it runs and deletes all it made: topics, group, state, catalog entry. */
    private void cleanUp(Job job) {
        stop(job.id(), true);
        String applicationId = ViewRuntime.applicationId(job.id());
        try {
            Set<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                .filter(topic -> topic.startsWith(applicationId + "-") || isOutputTopicOf(job, topic))
                .collect(Collectors.toSet());
            if (!topics.isEmpty()) {
                admin.deleteTopics(topics).all().get(30, TimeUnit.SECONDS);
            }
            deleteGroup(applicationId);
            deleteGroup(ViewRuntime.jdbcGroupId(job.id()));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupNotEmptyException) {
                LOG.info("Job {}: waiting for other instances to stop it before deleting its group", job.id());
                return;
            }
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                LOG.warn("Cleaning up job {} failed; retrying: {}", job.id(), e.getCause().toString());
                return;
            }
        } catch (TimeoutException e) {
            LOG.warn("Cleaning up job {} timed out; retrying", job.id());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Optional<CatalogEntry> entry = store.object(job.objectName()).filter(object -> object.jobId() == job.id());
        entry.ifPresent(object -> store.removeObject(object.name()));
        store.removeJob(job.id());
    }

    /** A view's changelog and a JDBC sink's topic are its own; a Kafka sink's topic belongs to its readers and stays. */
    private static boolean isOutputTopicOf(Job job, String topic) {
        return job.plan() != null && (!job.plan().has("sink") || job.plan().path("sink").has("jdbc"))
            && topic.equals(job.plan().path("outputTopic").asText(null));
    }

    private void deleteGroup(String groupId) throws ExecutionException, InterruptedException, TimeoutException {
        try {
            admin.deleteConsumerGroups(List.of(groupId)).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                throw e;
            }
        }
    }

    private void stop(long jobId, boolean deleteState) {
        ViewRuntime runtime = runtimes.remove(jobId);
        if (runtime != null) {
            runtime.stop(deleteState);
            LOG.info("Job {} stopped on this instance", jobId);
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> committedOffsets(Job job) {
        try {
            return admin.listConsumerGroupOffsets(ViewRuntime.applicationId(job.id()))
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("Cannot read committed offsets of job {}: {}", job.id(), e.toString());
            return Map.of();
        }
    }

    @Override
    public void close() {
        loop.shutdownNow();
        try {
            loop.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        runtimes.values().forEach(ViewRuntime::close);
        runtimes.clear();
        admin.close(Duration.ofSeconds(5));
    }
}
