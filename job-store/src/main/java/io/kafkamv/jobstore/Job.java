package io.kafkamv.jobstore;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A job: the full desired state of building and running one object, as persisted.
 *
 * @param targetOffsets  the end offset of every source partition when the job was accepted,
 *                       by {@code topic:partition}; the backfill is done when all are reached
 * @param startOffsets   where each source partition began at that moment
 * @param backfillOffsets the latest persisted consumed offsets, by {@code topic:partition}
 * @param progress       the fraction of the backfill done, from 0 to 1; never goes down
 * @param owner          for a foreground job, the instance whose client waits for it
 * @param rateLimit      records per second for the backfill, 0 pauses it, negative means none
 * @param generation     which of the job's Kafka Streams applications runs it: a job starts over under a new one
 *                       when its consumer group lost its offsets (see {@link #withGeneration})
 * @param rebuildTargets for a created job starting over, the end offsets of its sources then: it is read again
 *                       only once it has processed them; empty otherwise
 * @param waitsFor       for a {@link JobStatus#WAITING} job, the jobs creating the objects it reads: it takes its
 *                       offsets and starts once they are all created; empty otherwise
 */
public record Job(
    long id,
    String objectName,
    String statement,
    JsonNode plan,
    boolean background,
    JobStatus status,
    String failure,
    Map<String, Long> startOffsets,
    Map<String, Long> targetOffsets,
    Map<String, Long> backfillOffsets,
    double progress,
    String owner,
    long rateLimit,
    Instant createdAt,
    Instant updatedAt,
    int generation,
    Map<String, Long> rebuildTargets,
    List<Long> waitsFor) {

    public Job {
        Objects.requireNonNull(objectName, "objectName");
        Objects.requireNonNull(status, "status");
        startOffsets = Map.copyOf(startOffsets);
        targetOffsets = Map.copyOf(targetOffsets);
        backfillOffsets = Map.copyOf(backfillOffsets);
        rebuildTargets = rebuildTargets == null ? Map.of() : Map.copyOf(rebuildTargets);
        waitsFor = waitsFor == null ? List.of() : List.copyOf(waitsFor);
    }

    /** A job in its first generation, as every job starts. */
    public Job(long id, String objectName, String statement, JsonNode plan, boolean background, JobStatus status,
               String failure, Map<String, Long> startOffsets, Map<String, Long> targetOffsets,
               Map<String, Long> backfillOffsets, double progress, String owner, long rateLimit, Instant createdAt,
               Instant updatedAt) {
        this(id, objectName, statement, plan, background, status, failure, startOffsets, targetOffsets, backfillOffsets,
            progress, owner, rateLimit, createdAt, updatedAt, 0, Map.of(), List.of());
    }

    /** Whether the job is starting over and must not be read until it has processed {@link #rebuildTargets}. */
    public boolean rebuilding() {
        return !rebuildTargets.isEmpty();
    }

    /** Source records the backfill has consumed so far, over every partition. */
    public long recordsDone() {
        long done = 0;
        for (Map.Entry<String, Long> target : targetOffsets.entrySet()) {
            long from = startOffsets.getOrDefault(target.getKey(), 0L);
            done += Math.max(0, Math.min(target.getValue(), backfillOffsets.getOrDefault(target.getKey(), from)) - from);
        }
        return done;
    }

    /**
     * The progress as it is shown: 1 only once the object is created. A backfill that has read its sources up to
     * their targets (progress 1) may still wait for its exchanges to drain before the object becomes visible.
     */
    public double shownProgress() {
        return status == JobStatus.CREATED ? 1.0 : Math.min(progress, 0.9999);
    }

    /** Source records the backfill still has to consume before the object becomes visible; none once created. */
    public long recordsRemaining() {
        if (status == JobStatus.CREATED) {
            return 0;
        }
        long total = 0;
        for (Map.Entry<String, Long> target : targetOffsets.entrySet()) {
            total += target.getValue() - startOffsets.getOrDefault(target.getKey(), 0L);
        }
        return Math.max(0, total - recordsDone());
    }

    public Job withStatus(JobStatus newStatus, String reason) {
        return new Job(id, objectName, statement, plan, background, newStatus, reason, startOffsets, targetOffsets,
            backfillOffsets, progress, owner, rateLimit, createdAt, Instant.now(), generation, rebuildTargets, waitsFor);
    }

    /**
     * This new job accepted over objects still being created, by the jobs {@code dependencies}: it waits for them,
     * without offsets, and reads nothing meanwhile.
     */
    public Job waitingFor(List<Long> dependencies) {
        return new Job(id, objectName, statement, plan, background, JobStatus.WAITING, failure, Map.of(), Map.of(),
            Map.of(), 0.0, owner, rateLimit, createdAt, Instant.now(), generation, rebuildTargets, dependencies);
    }

    /**
     * The waiting job starting its backfill, now that what it reads is created: {@code start} and {@code targets}
     * are its sources' offsets now, as a new job's are when it is accepted.
     */
    public Job released(Map<String, Long> start, Map<String, Long> targets) {
        return new Job(id, objectName, statement, plan, background, JobStatus.CREATING, failure, start, targets,
            Map.of(), 0.0, owner, rateLimit, createdAt, Instant.now(), generation, rebuildTargets, List.of());
    }

    /** Records progress; a smaller figure than the persisted one is ignored, so progress never goes back. */
    public Job withProgress(Map<String, Long> consumed, double newProgress) {
        return new Job(id, objectName, statement, plan, background, status, failure, startOffsets, targetOffsets,
            consumed, Math.max(progress, newProgress), owner, rateLimit, createdAt, Instant.now(), generation,
            rebuildTargets, waitsFor);
    }

    /** The job with the rate limit ALTER set, which lives in a record of its own. */
    public Job withRateLimit(long recordsPerSecond) {
        return new Job(id, objectName, statement, plan, background, status, failure, startOffsets, targetOffsets,
            backfillOffsets, progress, owner, recordsPerSecond, createdAt, updatedAt, generation, rebuildTargets, waitsFor);
    }

    /**
     * The job starting over under a new Kafka Streams application, with empty state, from the start of its
     * sources: what an instance does when the job's consumer group has no offsets but its state has data (the
     * broker expired the offsets of the group, empty for longer than {@code offsets.retention.minutes}), since
     * reading the sources again on top of that state would count every record twice. A created job is not read
     * until it has processed {@code targets} (the ends of its sources now); a creating one was not read anyway.
     */
    public Job withGeneration(int newGeneration, Map<String, Long> targets) {
        return new Job(id, objectName, statement, plan, background, status, failure, startOffsets, targetOffsets,
            backfillOffsets, progress, owner, rateLimit, createdAt, Instant.now(), newGeneration,
            status == JobStatus.CREATED ? targets : Map.of(), waitsFor);
    }

    /** The job with its rebuild done: readable again. */
    public Job withRebuilt() {
        return new Job(id, objectName, statement, plan, background, status, failure, startOffsets, targetOffsets,
            backfillOffsets, progress, owner, rateLimit, createdAt, Instant.now(), generation, Map.of(), waitsFor);
    }

    /**
     * This write of the job as it applies after {@code previous}, the state already recorded: writers rewrite
     * the whole job from copies that may be older than the log (another instance wrote since), and such a
     * write must not take the job back. A job never returns to WAITING or CREATING, keeps the offsets it took first,
     * leaves FAILED only to be cancelled, its progress
     * (with the offsets it was measured at) never goes down, its generation never goes back, and a rebuild once done
     * is not undone by an older copy.
     */
    public Job after(Job previous) {
        if (previous == null) {
            return this;
        }
        boolean staleStatus = rank(status) < rank(previous.status)
            || previous.status == JobStatus.FAILED && status != JobStatus.FAILED && status != JobStatus.CANCELLING;
        // Offsets are taken once, when the job starts reading: the first release of a waiting job wins on every
        // instance, and a copy made while it waited cannot take them away.
        boolean offsetsTaken = previous.status != JobStatus.WAITING;
        boolean staleProgress = progress < previous.progress;
        boolean staleGeneration = generation < previous.generation;
        boolean staleRebuild = generation == previous.generation && rebuilding() && !previous.rebuilding();
        // A record keeps the rate limit its job was created with: ALTER's and PAUSE's live in records of their own,
        // and a copy that carries them (JobStore#job) must not write them into this one.
        boolean ownRate = rateLimit != previous.rateLimit;
        boolean sameOffsets = !offsetsTaken || startOffsets.equals(previous.startOffsets)
            && targetOffsets.equals(previous.targetOffsets) && waitsFor.equals(previous.waitsFor);
        if (!staleStatus && !staleProgress && !staleGeneration && !staleRebuild && !ownRate && sameOffsets) {
            return this;
        }
        return new Job(id, objectName, statement, plan, background, staleStatus ? previous.status : status,
            staleStatus ? previous.failure : failure, offsetsTaken ? previous.startOffsets : startOffsets,
            offsetsTaken ? previous.targetOffsets : targetOffsets,
            staleProgress ? previous.backfillOffsets : backfillOffsets, Math.max(progress, previous.progress), owner,
            previous.rateLimit, createdAt, updatedAt, staleGeneration ? previous.generation : generation,
            staleGeneration || staleRebuild ? previous.rebuildTargets : rebuildTargets,
            offsetsTaken ? previous.waitsFor : waitsFor);
    }

    /** How far along its life a status is: a job never goes back to waiting or to creating. */
    private static int rank(JobStatus status) {
        return switch (status) {
            case WAITING -> 0;
            case CREATING -> 1;
            case CREATED, CANCELLING, FAILED -> 2;
        };
    }
}
