package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.runtime.EvaluationErrors;
import io.kafkamv.compiler.topology.TopologyFactory;
import io.kafkamv.compiler.topology.TopologyFactory.PrefixedPlan;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.LastHeard;
import io.kafkamv.jobstore.SharedMembers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this instance's shared application ({@link SharedRuntime}) running with the members the job store says
 * ({@link SharedMembers}), and changes them: with {@code shared_views} on, created views move in; a member dropped,
 * cancelled or failed leaves. Called by the {@link JobRunner}'s reconcile, on its thread.
 *
 * <p>This is the first phase of docs/concepts.md's design, "Many views on one instance":
 * <ul>
 *   <li>The members change only while this is the only live instance. Instances that ran different members in one
 *   group would run one view's tasks as another's (the members' order numbers the tasks). With several live, a view
 *   stays where it is, and a dropped member keeps running, unread, until one instance is left; its topics are
 *   deleted then.</li>
 *   <li>A view moves when it and the shared application stand at the same offsets of the sources both read: quiet
 *   sources. A view over a source written all the time stays alone until its own reading can be bounded.</li>
 * </ul>
 */
final class ViewSharing {

    private static final Logger LOG = LoggerFactory.getLogger(ViewSharing.class);
    /**
     * How long a view that can move waits at most for others to move with.
     */
    private static final Duration MOVE_INTERVAL = Duration.ofSeconds(30);
    /** How long a batch waits for more views after its newest. */
    private static final Duration SETTLE = Duration.ofSeconds(5);
    /** The views at most that move ahead of the shared application at once, which waits paused for the slowest. */
    private static final int MAX_AHEAD = 16;
    /** How long a view may take to stand where the paused shared application stands. */
    private static final Duration AHEAD_WAIT = Duration.ofSeconds(10);
    /**
     * Between two reads of the paused shared application's positions that must agree: longer than a commit interval
     * and a slow exactly-once commit (up to 130 ms seen) together. Too short only costs a move: the handoff finds
     * the positions apart and refuses.
     */
    private static final Duration POSITIONS_STEADY = Duration.ofMillis(600);
    private static final Duration RESTART_BACKOFF = Duration.ofSeconds(5);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final JobStore store;
    private final LocalJobs local;
    private final Admin admin;
    private final KafkaJobOffsets offsets;
    private final Properties properties;
    private final String instanceId;
    /** Views that cannot run with the members there are (a topic they read another way): not tried again. */
    private final Set<Long> unshareable = new HashSet<>();
    /** Since when each view that can move has waited to, by job id. */
    private final Map<Long, Long> waitingSince = new HashMap<>();
    private long nextAttempt = System.nanoTime();
    private long lastFailure = System.nanoTime() - RESTART_BACKOFF.toNanos();

    /** @param properties the shared application's Kafka Streams configuration */
    ViewSharing(JobStore store, LocalJobs local, Admin admin, KafkaJobOffsets offsets, Properties properties,
                String instanceId) {
        this.store = store;
        this.local = local;
        this.admin = admin;
        this.offsets = offsets;
        this.properties = properties;
        this.instanceId = instanceId;
    }

    /** Whether the job's view runs in the shared application, as the job store says, and not in one of its own. */
    boolean isMember(long jobId) {
        return store.sharedMembers().contains(jobId);
    }

    /** Whether the shared application may still run the job's tasks here or elsewhere: its topics must stay. */
    boolean holds(long jobId) {
        return isMember(jobId) || local.shared().map(shared -> shared.memberIds().contains(jobId)).orElse(false);
    }

    /**
     * @param jobs          every job, by id, as this reconcile read them
     * @param limitedTopics the topics of sources with a rate limit, which a member would not keep
     */
    void reconcile(Map<Long, Job> jobs, Set<String> limitedTopics) {
        boolean alone = alone();
        SharedMembers members = store.sharedMembers();
        if (alone) {
            List<Long> leaving = new ArrayList<>(members.jobs().stream().filter(id -> !stays(jobs.get(id))).toList());
            List<Long> goingAlone = members.jobs().stream()
                .filter(id -> stays(jobs.get(id)) && wantsAlone(id, limitedTopics)).toList();
            if (!goingAlone.isEmpty()) {
                leaving.addAll(handedBack(goingAlone, jobs));
            }
            if (!leaving.isEmpty()) {
                LOG.info("Jobs {} leave the shared application", leaving);
                store.putSharedMembers(members.leftBy(leaving));
                members = store.sharedMembers();
            }
        }
        run(members, jobs);
        if (alone && store.sharedViews()) {
            move(jobs, limitedTopics);
        }
        unshareable.retainAll(jobs.keySet());
    }

    /**
     * Whether a member was given what only its own application applies since it moved: a PARALLELISM, or a rate limit
     * on a source it reads.
     */
    private boolean wantsAlone(long jobId, Set<String> limitedTopics) {
        if (JobParallelism.set(store, jobId).isPresent()) {
            return true;
        }
        return local.shared().flatMap(shared -> shared.member(jobId))
            .map(member -> member.plan().sourceTopics().stream().anyMatch(limitedTopics::contains)).orElse(false);
    }

    /**
     * Gives the members' own groups the shared group's positions on their sources and their internal topics, with the
     * shared application closed, so that each goes on alone where it stood; returns those handed back. Their own
     * applications start once they are no members.
     */
    private List<Long> handedBack(List<Long> goingAlone, Map<Long, Job> jobs) {
        Optional<SharedRuntime> shared = local.shared();
        shared.ifPresent(SharedRuntime::close);
        if (shared.isPresent() && !shared.get().closed()) {
            return List.of();
        }
        List<Long> handedBack = new ArrayList<>();
        for (long id : goingAlone) {
            Job job = jobs.get(id);
            try {
                ViewHandoff.handBack(admin, SharedRuntime.APPLICATION_ID, ViewRuntime.applicationId(job),
                    topic -> PlanJson.fromTree(job.plan()).sourceTopics().contains(topic)
                        || ViewRuntime.isInternalTopicOf(topic, job.id(), job.generation()),
                    store.sharedMembers().readFrom(id), TIMEOUT);
                LOG.info("Job {} ({}) goes back to its own application: it was given a PARALLELISM or a source rate "
                    + "limit", id, job.objectName());
                handedBack.add(id);
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn("Job {}: its offsets could not be handed back to its own group yet: {}", id, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return handedBack;
    }

    private static boolean stays(Job job) {
        return job != null && job.status() == JobStatus.CREATED && !job.rebuilding();
    }

    /**
     * Runs the shared application here with {@code members}, starting it again when they changed or it failed. The
     * application it replaces stays where reads find it until then: stopped, it makes them wait and try again.
     */
    private void run(SharedMembers members, Map<Long, Job> jobs) {
        Optional<SharedRuntime> current = local.shared();
        if (current.isPresent() && !current.get().closed()) {
            if (current.get().closing()) {
                LOG.info("Closing the shared application on this instance again");
            } else if (current.get().failure().isPresent()) {
                LOG.error("The shared application failed on this instance; starting it again in {} s",
                    RESTART_BACKOFF.toSeconds(), current.get().failure().get());
                lastFailure = System.nanoTime();
            } else if (current.get().generation() == members.generation()) {
                return;
            }
            current.get().close();
            if (!current.get().closed()) {
                // Its threads may still commit: another application kmv here would run beside them. Tried again.
                LOG.warn("The shared application did not close within 30 s on this instance; closing it again");
                return;
            }
        }
        if (members.jobs().isEmpty()) {
            local.replaceShared(null);
            return;
        }
        if (System.nanoTime() - lastFailure < RESTART_BACKOFF.toNanos()) {
            return;
        }
        List<SharedRuntime.Member> running = new ArrayList<>();
        for (long id : members.jobs()) {
            Job job = jobs.get(id);
            if (job == null) {
                // Only a cleanup that did not wait for the member to leave removes its job: it cannot run without it.
                LOG.error("Job {} of the shared application has no record; the shared application runs without it", id);
                continue;
            }
            running.add(new SharedRuntime.Member(job, PlanJson.fromTree(job.plan()), members.readFrom(id)));
        }
        try {
            if (lostItsOffsets(running)) {
                return;
            }
            local.replaceShared(SharedRuntime.start(members.generation(), running, properties, admin));
            LOG.info("The shared application runs {} views on this instance (generation {})", running.size(),
                members.generation());
        } catch (RuntimeException e) {
            lastFailure = System.nanoTime();
            LOG.warn("The shared application cannot start on this instance yet; trying again in {} s",
                RESTART_BACKOFF.toSeconds(), e);
        }
    }

    /**
     * Whether the shared group has no committed offsets although its members' state has data: Kafka expired them
     * (an empty group's, after offsets.retention.minutes) or somebody deleted the group. Reading the sources from
     * their start on top of that state would count them twice, so the members leave, when this instance may change
     * them: their own groups are gone too, so each starts over alone, as a job that lost its offsets does.
     */
    private boolean lostItsOffsets(List<SharedRuntime.Member> members) {
        Optional<Map<String, Long>> committed = sharedCommitted();
        if (committed.isEmpty()) {
            throw new IllegalStateException("cannot read the shared group's committed offsets");
        }
        if (!committed.get().isEmpty()) {
            return false;
        }
        try {
            List<String> changelogs = new ArrayList<>();
            for (SharedRuntime.Member member : members) {
                offsets.internalTopics(member.job()).stream().filter(topic -> topic.endsWith("-changelog"))
                    .forEach(changelogs::add);
            }
            if (changelogs.isEmpty() || Offsets.committedEnd(admin, changelogs).values().stream().allMatch(end -> end == 0)) {
                return false;
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the members' changelogs: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (alone()) {
            List<Long> ids = members.stream().map(member -> member.job().id()).toList();
            LOG.error("The shared group {} has no committed offsets but its views' state has data; views {} leave it and "
                + "start over alone", SharedRuntime.APPLICATION_ID, ids);
            store.putSharedMembers(store.sharedMembers().leftBy(ids));
        }
        return true;
    }

    /**
     * Moves the created views that run alone here, caught up, into the shared application, in batches: each move stops
     * and starts the shared application, which holds up reads of its members for a moment. A batch moves once its
     * newest view has waited {@link #SETTLE} (views created one after the other go together) or its oldest
     * {@link #MOVE_INTERVAL}.
     */
    private void move(Map<Long, Job> jobs, Set<String> limitedTopics) {
        long now = System.nanoTime();
        SharedMembers members = store.sharedMembers();
        Optional<SharedRuntime> shared = local.shared();
        if (!members.jobs().isEmpty() && (shared.isEmpty() || !shared.get().hydrated())) {
            return;
        }
        List<SharedRuntime.Member> candidates = candidates(jobs, members, limitedTopics);
        Set<Long> ids = new HashSet<>();
        candidates.forEach(member -> ids.add(member.job().id()));
        waitingSince.keySet().retainAll(ids);
        ids.forEach(id -> waitingSince.putIfAbsent(id, now));
        if (candidates.isEmpty() || now < nextAttempt
            || waitingSince.values().stream().anyMatch(since -> now - since < SETTLE.toNanos())
            && waitingSince.values().stream().allMatch(since -> now - since < MOVE_INTERVAL.toNanos())) {
            return;
        }
        List<SharedRuntime.Member> current = members.jobs().stream().map(jobs::get).filter(java.util.Objects::nonNull)
            .map(job -> new SharedRuntime.Member(job, PlanJson.fromTree(job.plan()), members.readFrom(job.id()))).toList();
        List<SharedRuntime.Member> quiet = quiet(current, candidates);
        List<SharedRuntime.Member> batch = buildable(current, quiet);
        if (batch.isEmpty()) {
            // Their sources are written to: they move ahead of the shared application, or are asked again later.
            nextAttempt = now + SETTLE.toNanos();
            List<SharedRuntime.Member> busy = buildableAhead(current, candidates.stream()
                .filter(candidate -> !quiet.contains(candidate)).toList());
            if (!busy.isEmpty() && shared.isPresent()) {
                moveAhead(jobs, members, current, busy, shared.get());
            }
            return;
        }
        LOG.info("Moving {} views into the shared application: jobs {}", batch.size(),
            batch.stream().map(member -> member.job().id()).toList());
        try {
            shared.ifPresent(SharedRuntime::close);
            Set<Long> stopped = stopOwn(batch);
            Set<String> sharedSources = sourcesOf(current);
            List<Long> moved = handOverEach(batch, stopped, member -> {
                ViewHandoff.handOver(admin, ViewRuntime.applicationId(member.job()), SharedRuntime.APPLICATION_ID,
                    member.plan().sourceTopics(), sharedSources, TIMEOUT);
                sharedSources.addAll(member.plan().sourceTopics());
            });
            // Another instance that came up meanwhile may run the old members: they stay as they are.
            if (!moved.isEmpty() && alone() && store.putSharedMembers(members.joinedBy(moved))) {
                moved.forEach(this::deleteOwnGroup);
                LOG.info("Jobs {} moved into the shared application", moved);
            }
        } finally {
            try {
                run(store.sharedMembers(), jobs);
            } finally {
                // Reads of the moved views find them in the shared application from now on. Those that stayed alone
                // start again at the next reconcile, from what their own groups committed.
                batch.forEach(member -> local.remove(member.job().id()));
                waitingSince.clear();
            }
        }
    }

    private static Set<String> sourcesOf(List<SharedRuntime.Member> members) {
        Set<String> sources = new HashSet<>();
        members.forEach(member -> sources.addAll(member.plan().sourceTopics()));
        return sources;
    }

    /**
     * Moves views over sources being written to (docs/concepts.md, busy sources): the shared application pauses at S;
     * each view's own application reads on to C at or past S and closes; the view joins reading the shared sources
     * from C, dropping what the shared application reads below it, which it already holds.
     */
    private void moveAhead(Map<Long, Job> jobs, SharedMembers members, List<SharedRuntime.Member> current,
                           List<SharedRuntime.Member> busy, SharedRuntime shared) {
        LOG.info("Moving {} views over sources being written to into the shared application: jobs {}", busy.size(),
            busy.stream().map(member -> member.job().id()).toList());
        Set<String> sharedSources = sourcesOf(current);
        List<SharedRuntime.Member> ready = new ArrayList<>();
        try {
            shared.pause();
            Optional<Map<String, Long>> paused = pausedPositions(sharedSources);
            if (paused.isEmpty()) {
                LOG.info("The shared application's positions did not settle while paused; moving later");
                return;
            }
            ready.addAll(awaitAhead(busy, paused.get()));
            if (ready.isEmpty()) {
                LOG.info("No view reached the shared application's positions within {} s; moving later",
                    AHEAD_WAIT.toSeconds());
                return;
            }
            shared.close();
            Set<Long> stopped = stopOwn(ready);
            Map<Long, Map<String, Long>> readFrom = new HashMap<>();
            List<Long> moved = handOverEach(ready, stopped, member -> {
                readFrom.put(member.job().id(), ViewHandoff.handOverAhead(admin, ViewRuntime.applicationId(member.job()),
                    SharedRuntime.APPLICATION_ID, member.plan().sourceTopics(), sharedSources, TIMEOUT));
                // A later view of the batch reading the same topics joins where this one stands on them.
                sharedSources.addAll(member.plan().sourceTopics());
            });
            if (!moved.isEmpty() && alone() && store.putSharedMembers(members.joinedBy(moved, readFrom))) {
                moved.forEach(this::deleteOwnGroup);
                LOG.info("Jobs {} moved into the shared application, reading from {}", moved, readFrom);
            }
        } finally {
            if (!shared.closing()) {
                shared.resume();
            } else {
                try {
                    run(store.sharedMembers(), jobs);
                } finally {
                    ready.forEach(member -> local.remove(member.job().id()));
                    waitingSince.clear();
                }
            }
        }
    }

    /**
     * The paused shared application's committed positions on {@code sources} once they stop moving (a paused Kafka
     * Streams commits what it processed before), or empty if they do not within a few commit intervals.
     */
    private Optional<Map<String, Long>> pausedPositions(Set<String> sources) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Map<String, Long> last = null;
        while (System.nanoTime() < deadline) {
            Optional<Map<String, Long>> committed = sharedCommitted();
            if (committed.isPresent()) {
                Map<String, Long> now = new HashMap<>(committed.get());
                now.keySet().removeIf(partition -> !sources.contains(BackfillProgress.parse(partition).topic()));
                if (now.equals(last)) {
                    return Optional.of(now);
                }
                last = now;
            }
            try {
                Thread.sleep(POSITIONS_STEADY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The views whose own committed positions reach {@code paused} on the shared sources they read, in time. */
    private List<SharedRuntime.Member> awaitAhead(List<SharedRuntime.Member> busy, Map<String, Long> paused) {
        long deadline = System.nanoTime() + AHEAD_WAIT.toNanos();
        List<SharedRuntime.Member> waiting = new ArrayList<>(busy);
        List<SharedRuntime.Member> ready = new ArrayList<>();
        while (!waiting.isEmpty() && System.nanoTime() < deadline) {
            for (java.util.Iterator<SharedRuntime.Member> it = waiting.iterator(); it.hasNext(); ) {
                SharedRuntime.Member member = it.next();
                Map<String, Long> own = offsets.committed(member.job());
                boolean ahead = paused.entrySet().stream()
                    .filter(at -> member.plan().sourceTopics().contains(BackfillProgress.parse(at.getKey()).topic()))
                    .allMatch(at -> own.getOrDefault(at.getKey(), -1L) >= at.getValue());
                if (ahead) {
                    ready.add(member);
                    it.remove();
                }
            }
            if (!waiting.isEmpty()) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return ready;
    }

    /**
     * The views, up to {@link #MAX_AHEAD}, that can join together reading the sources they share with the members at
     * other offsets than theirs: they read them as streams of inserts ({@code TopologyFactory.PrefixedPlan}), and each
     * builds with the members and those before it.
     */
    private static List<SharedRuntime.Member> buildableAhead(List<SharedRuntime.Member> members,
                                                             List<SharedRuntime.Member> candidates) {
        List<PrefixedPlan> plans = new ArrayList<>();
        members.forEach(member -> plans.add(new PrefixedPlan(member.prefix(), member.plan(), IGNORED, member.readFrom())));
        Set<String> shared = sourcesOf(members);
        List<SharedRuntime.Member> joining = new ArrayList<>();
        for (SharedRuntime.Member candidate : candidates) {
            if (joining.size() == MAX_AHEAD) {
                break;
            }
            Map<String, Long> somewhere = new HashMap<>();
            candidate.plan().sourceTopics().stream().filter(shared::contains)
                .forEach(topic -> somewhere.put(topic + ":0", 1L));
            List<PrefixedPlan> with = new ArrayList<>(plans);
            with.add(new PrefixedPlan(candidate.prefix(), candidate.plan(), IGNORED, somewhere));
            try {
                TopologyFactory.buildShared(with);
                plans.add(with.get(with.size() - 1));
                joining.add(candidate);
            } catch (IllegalArgumentException e) {
                LOG.debug("Job {} cannot join ahead of the shared application: {}", candidate.job().id(), e.getMessage());
            }
        }
        return joining;
    }

    /** One view's handoff ({@link ViewHandoff}). */
    @FunctionalInterface
    private interface Handoff {
        void handOver(SharedRuntime.Member member) throws InterruptedException, ExecutionException, TimeoutException;
    }

    /** Hands the stopped views of {@code batch} over in order; one that cannot be stays alone. Returns those handed over. */
    private static List<Long> handOverEach(List<SharedRuntime.Member> batch, Set<Long> stopped, Handoff handoff) {
        List<Long> moved = new ArrayList<>();
        for (SharedRuntime.Member member : batch) {
            Job job = member.job();
            if (!stopped.contains(job.id())) {
                continue;
            }
            try {
                handoff.handOver(member);
                moved.add(job.id());
            } catch (ViewHandoff.PositionsApart e) {
                LOG.info("Job {} ({}) stays alone for now: {}", job.id(), job.objectName(), e.getMessage());
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn("Job {} ({}) stays alone for now: its offsets could not be handed over: {}", job.id(),
                    job.objectName(), e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return moved;
    }

    /**
     * Stops the batch's own applications, leaving their groups, several at a time (a close waits for the last commit
     * and the group, not for a core), and returns the jobs whose applications closed. They stay where reads find
     * them: stopped, they make reads wait.
     */
    private Set<Long> stopOwn(List<SharedRuntime.Member> batch) {
        java.util.concurrent.ExecutorService stopping = java.util.concurrent.Executors.newFixedThreadPool(
            Math.min(8, batch.size()));
        Set<Long> stopped = new HashSet<>();
        try {
            Map<Long, java.util.concurrent.Future<Boolean>> stops = new HashMap<>();
            for (SharedRuntime.Member member : batch) {
                local.get(member.job().id()).ifPresent(own ->
                    stops.put(member.job().id(), stopping.submit(() -> own.stop(true))));
            }
            for (Map.Entry<Long, java.util.concurrent.Future<Boolean>> stop : stops.entrySet()) {
                try {
                    if (stop.getValue().get()) {
                        stopped.add(stop.getKey());
                    }
                } catch (ExecutionException e) {
                    LOG.warn("Job {}: its own application did not stop cleanly: {}", stop.getKey(), e.getCause().toString());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopping.shutdown();
        }
        return stopped;
    }

    /** The created views running alone here, caught up and restored, that could move, in job order. */
    private List<SharedRuntime.Member> candidates(Map<Long, Job> jobs, SharedMembers members, Set<String> limitedTopics) {
        List<SharedRuntime.Member> candidates = new ArrayList<>();
        for (Job job : jobs.values().stream().sorted(Comparator.comparingLong(Job::id)).toList()) {
            if (!stays(job) || members.contains(job.id()) || unshareable.contains(job.id())
                || JobParallelism.set(store, job.id()).isPresent()) {
                continue;
            }
            Optional<ViewRuntime> own = local.get(job.id());
            if (own.isEmpty() || !own.get().hydrated() || own.get().failure().isPresent()) {
                continue;
            }
            PhysicalPlan plan = own.get().plan();
            if (plan.store() == null || plan.index() != null || plan.sink() != null) {
                unshareable.add(job.id());
                continue;
            }
            if (plan.sourceTopics().stream().anyMatch(limitedTopics::contains)) {
                continue;
            }
            candidates.add(new SharedRuntime.Member(job, plan));
        }
        return candidates;
    }

    /**
     * Those of the views that are {@link #quiet} now. What the shared group committed of a topic no member reads (left
     * by a member that was dropped, or a move that did not finish) is no one's position, and not compared.
     */
    private List<SharedRuntime.Member> quiet(List<SharedRuntime.Member> members, List<SharedRuntime.Member> candidates) {
        Optional<Map<String, Long>> committed = sharedCommitted();
        if (committed.isEmpty()) {
            return List.of();
        }
        Set<String> sources = sourcesOf(members);
        Map<String, Long> committedShared = new HashMap<>(committed.get());
        committedShared.keySet().removeIf(partition -> !sources.contains(BackfillProgress.parse(partition).topic()));
        return candidates.stream().filter(member -> quiet(member.job(), member.plan(), committedShared, sources)).toList();
    }

    /**
     * Whether the view has read the sources the shared application reads too to their ends, as has the shared
     * application: only then can their positions be the same once both stop.
     */
    private boolean quiet(Job job, PhysicalPlan plan, Map<String, Long> committedShared, Set<String> sharedSources) {
        List<String> both = plan.sourceTopics().stream().filter(sharedSources::contains).toList();
        if (both.isEmpty()) {
            // Its own positions are taken over as they are.
            return true;
        }
        Map<String, Long> own = offsets.committed(job);
        Map<String, Long> ends = offsets.ends(both);
        return ends.entrySet().stream().allMatch(end -> end.getValue() == 0
            || own.getOrDefault(end.getKey(), -1L) >= end.getValue()
            && committedShared.getOrDefault(end.getKey(), -1L) >= end.getValue());
    }

    /** The shared group's committed offsets, keyed as jobs keep them; empty when they cannot be read now. */
    private Optional<Map<String, Long>> sharedCommitted() {
        try {
            Map<String, Long> committed = new HashMap<>();
            admin.listConsumerGroupOffsets(SharedRuntime.APPLICATION_ID).partitionsToOffsetAndMetadata()
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((partition, offset) -> {
                    if (offset != null) {
                        committed.put(BackfillProgress.key(partition), offset.offset());
                    }
                });
            return Optional.of(committed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
        }
    }

    /**
     * The candidates that can be built into one topology with the members, in order; one that cannot (it reads a topic
     * another way than a member does) is left out and not tried again.
     */
    private List<SharedRuntime.Member> buildable(List<SharedRuntime.Member> members, List<SharedRuntime.Member> candidates) {
        if (builds(members, candidates)) {
            return candidates;
        }
        List<SharedRuntime.Member> batch = new ArrayList<>();
        for (SharedRuntime.Member candidate : candidates) {
            List<SharedRuntime.Member> with = new ArrayList<>(batch);
            with.add(candidate);
            if (builds(members, with)) {
                batch.add(candidate);
            } else {
                LOG.info("Job {} ({}) stays alone: it reads a topic another way than a view of the shared application",
                    candidate.job().id(), candidate.job().objectName());
                unshareable.add(candidate.job().id());
            }
        }
        return batch;
    }

    /** A trial build evaluates nothing. */
    private static final EvaluationErrors IGNORED = (step, what, error) -> { };

    private static boolean builds(List<SharedRuntime.Member> members, List<SharedRuntime.Member> joining) {
        List<PrefixedPlan> plans = new ArrayList<>();
        members.forEach(member -> plans.add(new PrefixedPlan(member.prefix(), member.plan(), IGNORED, member.readFrom())));
        joining.forEach(member -> plans.add(new PrefixedPlan(member.prefix(), member.plan(), IGNORED)));
        try {
            TopologyFactory.buildShared(plans);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The moved view's own group: nothing reads from it again, and an own application must not start from it. */
    private void deleteOwnGroup(long jobId) {
        store.job(jobId).ifPresent(job -> {
            try {
                admin.deleteConsumerGroups(List.of(ViewRuntime.applicationId(job))).all()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                    LOG.warn("Job {}: its own consumer group could not be deleted: {}", jobId, e.getCause().toString());
                }
            } catch (TimeoutException e) {
                LOG.warn("Job {}: its own consumer group could not be deleted in time", jobId);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Whether no other instance has been heard from lately ({@link ForegroundJobWatch#SILENCE}). */
    private boolean alone() {
        long now = System.nanoTime();
        for (Map.Entry<String, LastHeard> instance : store.heard().entrySet()) {
            LastHeard last = instance.getValue();
            if (!instance.getKey().equals(instanceId) && !last.stopped()
                && now - last.readAtNanos() <= ForegroundJobWatch.SILENCE.toNanos()) {
                return false;
            }
        }
        return true;
    }

    /** Closes the shared application here. */
    void close() {
        local.replaceShared(null).ifPresent(SharedRuntime::close);
    }
}
