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
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.jobstore.ObjectStatus;
import io.kafkamv.service.auth.BearerTokens;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.tables.NewTopics;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes this instance do what the job store says: runs every job that should run, stops and
 * cleans up every job being cancelled ({@link JobCleanup}), and moves backfills forward to CREATED
 * once they have caught up ({@link CatchUpRule}). Every instance runs one; Kafka Streams spreads
 * each job's partitions over the instances that run it. Reads of the views go through {@link #reads()}.
 *
 * <p>All work happens on one thread, woken by job store changes and four times a second, so the
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
    private final LocalJobs local = new LocalJobs();
    private final ViewReads reads;
    private final KafkaJobOffsets offsets;
    private final CatchUpRule catchUp;
    private final LocalStartProblems problems = new LocalStartProblems();
    /** The way of each creating job to its targets, followed across reconciles (see {@link CatchUpRule}). */
    private final Map<Long, CatchUpRule.CatchUp> visibility = new ConcurrentHashMap<>();
    /** The way of each created job that started over to the ends its sources had then. */
    private final Map<Long, CatchUpRule.CatchUp> rebuilds = new ConcurrentHashMap<>();
    private final JobCleanup cleanup;
    private final ViewSharing sharing;
    private final WaitingJobs waiting;
    private final LocalStateSweeper sweeper;
    /** Jobs left to the other instances because this one cannot read their latest record; the runner's thread only. */
    private final java.util.Set<Long> unreadableRecords = new java.util.HashSet<>();
    private static final Duration SWEEP_INTERVAL = Duration.ofMinutes(1);
    private long lastSweep = System.nanoTime();
    private static final Duration STALL_LIMIT = Duration.ofSeconds(60);
    /** Each backfill's offsets, to restart one that stalls. */
    private final StallWatch backfillStalls = new StallWatch(STALL_LIMIT);
    /** What each created job has left to restore here, to start over one that a hanging transaction holds. */
    private final StallWatch restoreStalls = new StallWatch(STALL_LIMIT);
    private final java.util.concurrent.atomic.AtomicBoolean reconcilePending = new java.util.concurrent.atomic.AtomicBoolean();
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "job-runner");
        thread.setDaemon(true);
        return thread;
    });
    /**
     * Closes the Kafka Streams instances of jobs stopped for good (cancelled, dropped, of an earlier generation): a
     * close can take its whole 30 s under load, and on the runner's thread it held up every other job's cancel,
     * visibility and progress behind it (review finding 16).
     */
    private final java.util.concurrent.ExecutorService closer = Executors.newFixedThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "job-closer");
        thread.setDaemon(true);
        return thread;
    });
    /** Applications {@link #closer} is closing: their local state is not the sweeper's to delete yet. */
    private final java.util.Set<String> closing = ConcurrentHashMap.newKeySet();
    /** Jobs {@link #closer} is closing here: their cleanup waits, or it would delete topics under running threads. */
    private final Map<Long, ViewRuntime> closingJobs = new ConcurrentHashMap<>();
    /** The created jobs this instance last said it has restored whole, in its heartbeat. */
    private java.util.Set<Long> reportedHydrated = java.util.Set.of();
    private volatile Runnable hydrationChanged = () -> { };
    /**
     * Adds and removes stream threads (ALTER ... SET PARALLELISM): a removal waits for its thread to commit and leave,
     * which must hold up neither the runner nor the closes of cancelled jobs.
     */
    private final java.util.concurrent.ExecutorService resizer = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "job-resizer");
        thread.setDaemon(true);
        return thread;
    });
    /** Jobs whose stream threads {@link #resizer} is adding or removing here (ALTER ... SET PARALLELISM). */
    private final java.util.Set<Long> resizing = ConcurrentHashMap.newKeySet();
    /** When the runner last wrote each backfill's progress: at most once a second, each write goes to every instance. */
    private final Map<Long, Long> progressWritten = new ConcurrentHashMap<>();

    public JobRunner(JobStore store, Properties clientProperties, Path stateDir, MeterRegistry metrics,
                     String applicationServer, String instanceId, int viewPartitions, short replicationFactor,
                     BearerTokens tokens) {
        this.store = store;
        this.instanceId = instanceId;
        this.applicationServer = applicationServer;
        this.metrics = metrics;
        this.clientProperties = clientProperties;
        this.stateDir = stateDir;
        this.admin = Admin.create(clientProperties);
        this.reads = new ViewReads(local, applicationServer, tokens, admin, store::job, metrics);
        this.newTopics = new NewTopics(admin, replicationFactor);
        this.viewPartitions = viewPartitions;
        this.offsets = new KafkaJobOffsets(admin, clientProperties, id -> store.sharedMembers().contains(id));
        this.catchUp = new CatchUpRule(offsets);
        this.cleanup = new JobCleanup(store, admin);
        this.waiting = new WaitingJobs(store, admin);
        this.sweeper = new LocalStateSweeper(stateDir);
        this.sharing = new ViewSharing(store, local, admin, offsets, ViewRuntime.streamsProperties(clientProperties,
            SharedRuntime.APPLICATION_ID, stateDir, applicationServer, instanceId, JobParallelism.DEFAULT,
            JobShare.COMMIT_INTERVAL), instanceId);
    }

    public void start() {
        // At most one reconcile waits for its turn, however many job store batches arrive meanwhile: it reads the
        // store as it is when it runs, so one more would do the same work again (review finding 16).
        store.addListener(() -> {
            if (reconcilePending.compareAndSet(false, true)) {
                try {
                    loop.execute(() -> {
                        reconcilePending.set(false);
                        reconcileSafely();
                    });
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    // The runner is closing (close() shut the loop down): there is nothing left to reconcile here.
                    reconcilePending.set(false);
                }
            }
        });
        // Often enough that a view becomes visible within a fraction of a second of catching up.
        loop.scheduleWithFixedDelay(this::reconcileSafely, 0, 250, TimeUnit.MILLISECONDS);
        loop.scheduleWithFixedDelay(this::throttleBackfills, 100, 100, TimeUnit.MILLISECONDS);
    }

    private void throttleBackfills() {
        Map<String, Long> sourceLimits = sourceLimitsByTopic();
        local.byId().forEach((id, runtime) -> store.job(id).ifPresent(job -> {
            try {
                runtime.throttle(job, sourceLimits);
            } catch (RuntimeException e) {
                LOG.debug("Throttling job {} failed: {}", id, e.toString());
            }
        }));
    }

    /** ALTER SOURCE's SOURCE_RATE_LIMITs, by the topic of their source: the smallest, for two sources of one topic. */
    private Map<String, Long> sourceLimitsByTopic() {
        Map<String, Long> byTopic = new java.util.HashMap<>();
        store.sourceRateLimits().forEach((source, limit) -> store.object(source)
            .filter(entry -> entry.kind() == ObjectKind.SOURCE)
            .ifPresent(entry -> byTopic.merge(CatalogService.relation(entry).topic(), limit, Math::min)));
        return byTopic;
    }

    /** Reads of the rows of the views and indexes this instance runs, and through them of the whole cluster's. */
    public ViewReads reads() {
        return reads;
    }

    /**
     * Waits until every given job has processed its sources up to their current end, so that
     * writes acknowledged before the call are visible in the views. {@code checkpoint} runs between
     * polls, with the job waited for, and may throw to stop the wait.
     */
    public void awaitCaughtUp(Collection<Job> jobs, Duration timeout, java.util.function.Consumer<Job> checkpoint) throws InterruptedException, NotCaughtUp {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Job job : jobs) {
            Map<String, Long> end = offsets.ends(Offsets.topicsOf(job.targetOffsets()));
            CatchUpRule.CatchUp toEnd = catchUp.toward(job, end);
            while (!toEnd.reached()) {
                if (System.nanoTime() > deadline) {
                    throw new NotCaughtUp(job, timeout);
                }
                checkpoint.accept(job);
                Thread.sleep(50);
            }
        }
    }

    /** A job that had not processed its sources up to the ends they had when a wait began. */
    public static final class NotCaughtUp extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient Job job;

        NotCaughtUp(Job job, Duration waited) {
            super("view of job " + job.id() + " did not catch up within " + waited);
            this.job = job;
        }

        public Job job() {
            return job;
        }
    }

    /**
     * Source records the job's consumer group has not committed yet, over every instance: how far the
     * object trails its sources.
     */
    public long lag(Job job) throws InterruptedException, ExecutionException, TimeoutException {
        return offsets.lag(job, PlanJson.fromTree(job.plan()).sourceTopics());
    }

    /** The share of every object whose job runs on this instance. */
    public List<LocalViewStats> localStats() {
        return local.views().stream().map(LocalView::stats).toList();
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
        Set<Long> queued = Set.copyOf(store.queued());
        for (Job job : jobs.values()) {
            Optional<String> unreadable = store.unreadable(job.id());
            if (unreadable.isPresent()) {
                // Its latest record is a newer kafka-mv's: what this instance knows of it is out of date.
                stop(job.id());
                if (unreadableRecords.add(job.id())) {
                    problems.leaveToOthers(job.id(), "this instance cannot read the job's latest record (" + unreadable.get() + ")");
                }
                continue;
            }
            if (unreadableRecords.remove(job.id())) {
                problems.forget(job.id());
            }
            switch (job.status()) {
                case WAITING -> waiting.reconcile(job);
                case CREATING, CREATED -> {
                    if (queued.contains(job.id()) || sharing.isMember(job.id())) {
                        // Waiting for a slot (max_concurrent_creating_jobs), stopped if it ran before the limit fell;
                        // or run by the shared application.
                        stop(job.id());
                    } else {
                        ensureRunning(job);
                    }
                }
                case CANCELLING -> {
                    stopForGood(job.id(), () -> { });
                    if (!closingJobs.containsKey(job.id()) && !sharing.holds(job.id())) {
                        // Not while a Kafka Streams instance may still run it: its threads could make topics again.
                        cleanup.cleanUp(job);
                    }
                }
                case FAILED -> stop(job.id());
            }
        }
        for (long id : local.ids()) {
            if (!jobs.containsKey(id)) {
                // Removed while it ran here (this instance started it late, after another cleaned it up): what it
                // made again since is deleted too.
                Optional<Job> removed = local.get(id).map(ViewRuntime::job);
                stopForGood(id, () -> removed.ifPresent(cleanup::removeLeftovers));
            }
        }
        List<Job> backfilling = jobs.values().stream()
            .filter(job -> job.status() == JobStatus.CREATING && local.runs(job.id())).toList();
        Map<Long, Map<String, Long>> committed = offsets.committedOfEach(backfilling);
        for (Job job : jobs.values()) {
            if (job.status() == JobStatus.CREATING && local.runs(job.id())) {
                trackBackfill(job, committed.containsKey(job.id()) ? committed.get(job.id()) : Map.of());
            } else if (job.status() == JobStatus.CREATED && job.rebuilding() && local.runs(job.id())) {
                trackRebuild(job);
            }
            if (job.status() == JobStatus.CREATED) {
                local.get(job.id()).ifPresent(runtime -> watchRestore(job, runtime));
            }
        }
        try {
            sharing.reconcile(jobs, sourceLimitsByTopic().keySet());
        } catch (RuntimeException e) {
            LOG.warn("Running the shared application failed; trying again shortly", e);
        }
        resizeToParallelism();
        reportHydration();
        rebuilds.keySet().removeIf(id -> !jobs.containsKey(id) || !jobs.get(id).rebuilding());
        sweepLocalState(jobs);
        backfillStalls.retainOnly(id -> jobs.containsKey(id) && jobs.get(id).status() == JobStatus.CREATING);
        restoreStalls.retainOnly(id -> jobs.containsKey(id) && jobs.get(id).status() == JobStatus.CREATED
            && local.runs(id));
        visibility.keySet().removeIf(id -> !jobs.containsKey(id) || jobs.get(id).status() != JobStatus.CREATING);
        progressWritten.keySet().removeIf(id -> !jobs.containsKey(id) || jobs.get(id).status() != JobStatus.CREATING);
        problems.retainOnly(jobs.keySet());
    }

    /**
     * Starts the job here if it is not running, and starts it again if it failed. A failure here is this
     * instance's (see {@link LocalStartProblems}): the job is tried again with backoff and keeps its status for the
     * cluster. Only a plan no topology can be built from, which would fail the same on every instance, fails the
     * job; a plan this instance cannot read (a newer kafka-mv's) is left to the instances that can.
     */
    private void ensureRunning(Job job) {
        long now = System.nanoTime();
        Optional<ViewRuntime> running = local.get(job.id());
        if (running.isPresent() && running.get().generation() != job.generation()) {
            LOG.info("Job {} ({}) starts over as generation {}: stopping its generation {} here", job.id(),
                job.objectName(), job.generation(), running.get().generation());
            stopForGood(job.id(), () -> { });
            running = Optional.empty();
        }
        if (running.isPresent()) {
            Optional<Throwable> failure = running.get().failure();
            if (failure.isPresent()) {
                Duration delay = problems.failed(job.id(), failure.get(), now);
                LOG.error("Job {} ({}) failed on this instance; starting it here again in {} s", job.id(),
                    job.objectName(), delay.toSeconds(), failure.get());
                stop(job.id());
            } else if (running.get().isRunning()) {
                problems.running(job.id(), now);
            }
            return;
        }
        if (!problems.due(job.id(), now)) {
            return;
        }
        PhysicalPlan plan;
        try {
            plan = PlanJson.fromTree(job.plan());
        } catch (RuntimeException e) {
            if (problems.leaveToOthers(job.id(), e.getMessage())) {
                LOG.warn("Job {} ({}) cannot run on this instance, which leaves it to the instances that can: {}",
                    job.id(), job.objectName(), e.getMessage());
            }
            return;
        }
        if (store.job(job.id()).map(current -> !current.status().isRunning()).orElse(true)) {
            // Cancelled or removed since this reconcile read the store: starting it would make its topics again.
            return;
        }
        try {
            if (plan.sink() == null && plan.index() == null) {
                newTopics.ensure(plan.outputTopic(), viewPartitions, true);
            }
            if (lostItsOffsets(job)) {
                Job next = job.withGeneration(job.generation() + 1, offsets.ends(plan.sourceTopics()));
                LOG.warn("Job {} ({}): its consumer group has no committed offsets but its state has data (Kafka expires "
                    + "an empty group's offsets after offsets.retention.minutes): reading its sources again on top of "
                    + "that state would count them twice, so it starts over with empty state as generation {}{}",
                    job.id(), job.objectName(), next.generation(), next.rebuilding()
                        ? " and is not read until it has caught up with its sources" : "");
                store.put(next);
                return;
            }
            seedStartOffsets(job, plan);
            JobShare share = JobShare.forJobsHere(local.all().size());
            ViewRuntime runtime = ViewRuntime.start(job, plan, clientProperties, stateDir, metrics, applicationServer,
                instanceId, JobParallelism.set(store, job.id()).orElse(share.defaultThreads()), share, admin);
            // Held from its first poll, not from the next throttle tick, by a limit of 0.
            runtime.throttle(store.job(job.id()).orElse(job), sourceLimitsByTopic());
            local.add(job.id(), runtime);
            LOG.info("Job {} ({}) started on this instance, status {}", job.id(), job.objectName(), job.status());
        } catch (ViewRuntime.InvalidPlanException e) {
            LOG.error("Job {} ({}) cannot start: its plan does not build", job.id(), job.objectName(), e);
            store.put(job.withStatus(JobStatus.FAILED, "cannot start: " + e.getMessage()));
        } catch (RuntimeException e) {
            Duration delay = problems.failed(job.id(), e, now);
            LOG.warn("Job {} ({}) cannot start on this instance yet; trying again in {} s", job.id(), job.objectName(),
                delay.toSeconds(), e);
        }
    }

    /**
     * The created jobs whose local state this instance has restored whole, and those it leaves to the others (it cannot
     * read their record or plan, whatever status the last record it could read says), which are theirs to restore.
     */
    public java.util.Set<Long> hydratedJobs() {
        java.util.Set<Long> hydrated = store.jobs().stream()
            .filter(job -> job.status() == JobStatus.CREATED)
            .map(Job::id)
            .filter(this::hydratedHere)
            .collect(Collectors.toCollection(java.util.HashSet::new));
        hydrated.addAll(problems.leftToOthers());
        return java.util.Set.copyOf(hydrated);
    }

    private boolean hydratedHere(long jobId) {
        return local.view(jobId).map(LocalView::hydrated).orElseGet(() -> problems.leftToOthers(jobId));
    }

    /** Whether the created job's local state is whole on every instance ({@link ClusterHydration}). */
    public boolean hydrated(long jobId) {
        return ClusterHydration.hydrated(jobId, hydratedHere(jobId), instanceId, store.heard(), System.nanoTime(),
            ForegroundJobWatch.SILENCE);
    }

    /**
     * Tells the other instances at once when the set of jobs restored whole here changes, not at the next beat: through
     * the heartbeat's one writer ({@link #onHydrationChange}), which reads the set again as it writes it.
     */
    private void reportHydration() {
        java.util.Set<Long> hydrated = hydratedJobs();
        if (!hydrated.equals(reportedHydrated)) {
            reportedHydrated = hydrated;
            hydrationChanged.run();
        }
    }

    /** What says this instance's hydrated jobs to the others when they change (its heartbeat). */
    public void onHydrationChange(Runnable beat) {
        this.hydrationChanged = beat;
    }

    /**
     * Gives each running job the stream threads ALTER ... SET PARALLELISM asked for, off the runner's thread: a
     * thread's removal waits for it to commit and leave its group.
     */
    private void resizeToParallelism() {
        local.byId().forEach((id, runtime) -> {
            int wanted = JobParallelism.set(store, id).orElse(runtime.defaultThreads());
            if (runtime.isRunning() && !runtime.threadShuttingDown() && runtime.threads() != wanted
                && resizing.add(id)) {
                resizer.execute(() -> {
                    try {
                        runtime.resize(wanted);
                    } catch (RuntimeException e) {
                        LOG.warn("Job {}: its stream threads could not be made {} yet; trying again: {}", id, wanted,
                            e.toString());
                    } finally {
                        resizing.remove(id);
                    }
                });
            }
        });
    }

    /**
     * Now and then, deletes the local state of jobs that will not run here again ({@link LocalStateSweeper}); the
     * first time a while after start, when the job store has long been read whole.
     */
    private void sweepLocalState(Map<Long, Job> jobs) {
        long now = System.nanoTime();
        if (now - lastSweep < SWEEP_INTERVAL.toNanos()) {
            return;
        }
        lastSweep = now;
        java.util.Set<String> inUse = local.all().stream().map(runtime -> ViewRuntime.applicationId(runtime.job()))
            .collect(Collectors.toCollection(java.util.HashSet::new));
        inUse.addAll(closing);
        if (local.shared().isPresent() || !store.sharedMembers().jobs().isEmpty()) {
            inUse.add(SharedRuntime.APPLICATION_ID);
        }
        sweeper.sweep(jobs, inUse);
    }

    /**
     * The stream threads each instance runs the job with, as this one sees it: ALTER's or WITH's, else the default it
     * chose when it started the job here, else the one it would choose now.
     */
    public int parallelism(long jobId) {
        return JobParallelism.set(store, jobId).orElseGet(() -> local.get(jobId).map(ViewRuntime::defaultThreads)
            .orElseGet(() -> JobParallelism.byDefault(local.all().size())));
    }

    /** What keeps a job from running on this instance, if anything: SHOW JOBS says it beside the progress. */
    public Optional<String> localProblem(long jobId) {
        return problems.describe(jobId, System.nanoTime());
    }

    /**
     * Whether the job's consumer group has no committed offsets while the job has committed before (its record
     * says so) and its state (its changelogs) has committed data: the broker expired the offsets (review finding 9).
     * A job whose state is empty loses nothing by reading its sources again. Throws when Kafka cannot tell now: the
     * start is tried again later.
     */
    private boolean lostItsOffsets(Job job) {
        boolean hasCommitted = job.status() == JobStatus.CREATED || job.progress() > 0 || !job.backfillOffsets().isEmpty();
        try {
            if (!hasCommitted || !offsets.committedOrThrow(job).isEmpty()) {
                return false;
            }
            List<String> changelogs = offsets.internalTopics(job).stream()
                .filter(topic -> topic.endsWith("-changelog")).toList();
            // Committed data only: another instance that started the job may be writing its first transaction.
            return !changelogs.isEmpty()
                && Offsets.committedEnd(admin, changelogs).values().stream().anyMatch(end -> end > 0);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read its committed offsets: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * A created job that started over ({@link Job#withGeneration}) becomes readable again once it has caught up
     * with the ends its sources had then; the state of its earlier generations goes then.
     */
    private void trackRebuild(Job job) {
        ViewRuntime runtime = local.get(job.id()).orElseThrow();
        CatchUpRule.CatchUp toTargets = rebuilds.compute(job.id(), (id, known) ->
            known != null && known.job().generation() == job.generation() ? known
                : catchUp.toward(job, job.rebuildTargets()));
        if (runtime.isRunning() && toTargets.reached()) {
            LOG.info("Job {} ({}) caught up as generation {}: readable again", job.id(), job.objectName(),
                job.generation());
            store.put(job.withRebuilt());
            cleanup.removeEarlierGenerations(job);
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
        if (!Offsets.startsLate(plan) || !offsets.committed(job).isEmpty()) {
            return;
        }
        try {
            offsets.seed(job, job.startOffsets());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            if (offsets.committed(job).isEmpty()) {
                // Starting without them would read the source from its beginning (review finding 17): try later.
                throw new IllegalStateException("cannot set the start offsets of its late-starting source: "
                    + e.getMessage(), e);
            }
            // Another instance started the job meanwhile, having set the same offsets.
            LOG.debug("Job {}: start offsets not set here: {}", job.id(), e.toString());
        }
    }

    /** @param committed the offsets the job's group has committed, as this reconcile read them */
    private void trackBackfill(Job job, Map<String, Long> committed) {
        BackfillProgress progress = BackfillProgress.of(job.startOffsets(), job.targetOffsets(), committed);
        ViewRuntime runtime = local.get(job.id()).orElseThrow();
        CatchUpRule.CatchUp toTargets = visibility.compute(job.id(), (id, known) ->
            known != null && known.job().generation() == job.generation()
                && known.job().startOffsets().equals(job.startOffsets()) && known.targets().equals(job.targetOffsets())
                ? known : catchUp.toward(job, job.targetOffsets()));
        if (progress.done() && runtime.isRunning() && toTargets.reached()) {
            store.object(job.objectName())
                .filter(entry -> entry.jobId() == job.id())
                .ifPresent(entry -> store.put(entry.withStatus(ObjectStatus.CREATED)));
            store.put(job.withProgress(progress.consumed(), 1.0).withStatus(JobStatus.CREATED, null));
            if (store.paused(job.id())) {
                // Paused after its sources were read: nothing is left to hold, and RESUME refuses a created job.
                store.resume(job.id());
            }
            if (job.generation() > 0) {
                cleanup.removeEarlierGenerations(job);
            }
        } else {
            long now = System.nanoTime();
            // The first progress is written however small, so that SHOW JOBS stops saying "starting".
            boolean first = job.backfillOffsets().isEmpty() && progress.fraction() > 0;
            if ((progress.fraction() > job.progress() + 1e-4 || first)
                && now - progressWritten.getOrDefault(job.id(), now - 1_000_000_000L) >= 1_000_000_000L) {
                progressWritten.put(job.id(), now);
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
     * tasks re-created after an unclean restart while the backfill throttle paused them never resumed). One held by
     * a hanging transaction would stall again after a restart: it starts over instead ({@link #startOverPast}).
     */
    private void restartIfStalled(Job job, BackfillProgress progress, ViewRuntime runtime) {
        if (progress.done() || job.rateLimit() == 0 || runtime.heldAtZero()) {
            // Held on purpose, or done: the sources are read up to the targets, and what is left (exchanges, partials)
            // moves on without them.
            backfillStalls.forget(job.id());
            return;
        }
        StallWatch.Verdict verdict = backfillStalls.look(job.id(), progress.consumed(), System.nanoTime(),
            () -> openTransactions(job, runtime));
        List<HangingTransactions.Open> open;
        if (verdict instanceof StallWatch.Held held) {
            if (startOverPast(job, runtime, held.hanging())) {
                return;
            }
            open = held.hanging();
        } else if (verdict instanceof StallWatch.Stalled stalled) {
            open = stalled.open();
        } else {
            return;
        }
        LOG.warn("Job {} ({}) made no backfill progress for {} s though nothing holds it back (behind: {}; Kafka "
            + "Streams state {}; threads: {}; open transactions: {}); restarting it on this instance", job.id(),
            job.objectName(), STALL_LIMIT.toSeconds(), progress.behind(job.targetOffsets()), runtime.state(),
            runtime.threadsDescription(), open.isEmpty() ? "none" : open);
        local.remove(job.id()).ifPresent(stalled -> {
            stalled.stopToRestart();
            LOG.info("Job {} stopped on this instance, leaving its group, to start again", job.id());
        });
    }

    /**
     * Starts over a created job whose restore here a hanging transaction holds: without it the view would never be
     * whole here again, nor move on. A restore that stands still for another reason is only logged.
     */
    private void watchRestore(Job job, ViewRuntime runtime) {
        Map<String, Long> left = runtime.restoreLeft();
        if (left.isEmpty() || runtime.heldAtZero()) {
            // A rate limit of 0 pauses the restore too.
            restoreStalls.forget(job.id());
            return;
        }
        StallWatch.Verdict verdict = restoreStalls.look(job.id(), left, System.nanoTime(),
            () -> openTransactions(job, runtime));
        if (verdict instanceof StallWatch.Held held) {
            startOverPast(job, runtime, held.hanging());
        } else if (verdict instanceof StallWatch.Stalled stalled) {
            LOG.warn("Job {} ({}) restored nothing here for {} s (left: {}; threads: {}; open transactions: {})",
                job.id(), job.objectName(), STALL_LIMIT.toSeconds(), left, runtime.threadsDescription(),
                stalled.open().isEmpty() ? "none" : stalled.open());
        }
    }

    /**
     * Starts the job over with empty state as its next generation (see {@link Job#withGeneration}): it is held by
     * hanging transactions, and whether they committed cannot be known any more, so resuming on top of them could lose
     * a committed record or count one twice. The next generation writes every row of the view again. The transactions
     * are aborted once the earlier generation is cleaned up ({@link JobCleanup#removeEarlierGenerations}): aborted
     * now, they would let the earlier generation, still running here and elsewhere for a moment, go on on top of them.
     * Returns whether it did.
     */
    private boolean startOverPast(Job job, ViewRuntime runtime, List<HangingTransactions.Open> hanging) {
        Job next;
        try {
            next = job.withGeneration(job.generation() + 1, offsets.ends(runtime.plan().sourceTopics()));
        } catch (RuntimeException e) {
            LOG.warn("Job {} ({}) is held by transactions nothing will end ({}), but its sources' ends are not known "
                + "to start it over: {}", job.id(), job.objectName(), hanging, e.toString());
            return false;
        }
        LOG.warn("Job {} ({}) is held by transactions nothing will end: {}. Their partitions have them open, but their "
            + "coordinator is not ending them there (seen after an embedded broker was killed while a job committed). "
            + "Whether they committed cannot be known, so the job starts over with empty state as generation {}{}",
            job.id(), job.objectName(), hanging, next.generation(),
            next.rebuilding() ? " and is not read until it has caught up with its sources" : "");
        store.put(next);
        return true;
    }

    /** The transactions open on the partitions the job restores here and on its group's offsets; none when unknown. */
    private List<HangingTransactions.Open> openTransactions(Job job, ViewRuntime runtime) {
        try {
            return HangingTransactions.on(admin, runtime.restoringPartitions(), ViewRuntime.applicationId(job));
        } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
            LOG.info("Job {} ({}): its open transactions are not known: {}", job.id(), job.objectName(), e.toString());
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** Stops the job here; it may start here again at once, in the same state directory, so the close is over first. */
    private void stop(long jobId) {
        local.remove(jobId).ifPresent(runtime -> {
            runtime.stop(false);
            LOG.info("Job {} stopped on this instance", jobId);
        });
    }

    /**
     * Stops the job here for good (its local state is deleted), on the {@link #closer}; {@code then} runs once its
     * Kafka Streams is closed.
     */
    private void stopForGood(long jobId, Runnable then) {
        local.remove(jobId).ifPresent(runtime -> {
            String application = ViewRuntime.applicationId(runtime.job());
            closing.add(application);
            closingJobs.put(jobId, runtime);
            closer.execute(() -> {
                try {
                    runtime.stop(true);
                    LOG.info("Job {} stopped on this instance", jobId);
                    then.run();
                } catch (RuntimeException e) {
                    LOG.warn("Job {}: stopping it on this instance failed; its local state is deleted later", jobId, e);
                } finally {
                    closingJobs.remove(jobId);
                    closing.remove(application);
                }
            });
        });
    }

    /**
     * Waits up to {@code timeout} until no job here that reads {@code topic} still runs or closes, and says whether
     * none does. A dropped view is closed once the job store's record of the drop reaches the runner, on the
     * {@link #closer}; a table dropped right after it must not delete its topic before that: an exactly-once task
     * whose input topic is gone does not finish closing, and its consumer logs the missing partition hundreds of times
     * a second until the close times out (issue 21, the bench's DROP VIEW then DROP TABLE).
     */
    public boolean awaitNoReaders(String topic, java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (readsHere(topic)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    private boolean readsHere(String topic) {
        java.util.stream.Stream<LocalView> here = java.util.stream.Stream.concat(local.views().stream(),
            closingJobs.values().stream());
        return here.anyMatch(runtime -> runtime.plan().sourceTopics().contains(topic)
            || runtime.plan().lookupTopics().contains(topic));
    }

    @Override
    public void close() {
        loop.shutdownNow();
        resizer.shutdownNow();
        closer.shutdown();
        try {
            loop.awaitTermination(30, TimeUnit.SECONDS);
            closer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        local.all().forEach(ViewRuntime::close);
        local.clear();
        sharing.close();
        admin.close(Duration.ofSeconds(5));
    }
}
