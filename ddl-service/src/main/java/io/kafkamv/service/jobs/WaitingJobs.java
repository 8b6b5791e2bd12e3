package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs accepted over views still being created ({@link JobStatus#WAITING}). Each starts once every view it reads is
 * created, taking its offsets then as a new job takes them when it is accepted, and is cancelled, saying why, when
 * one of them will not be created (cancelled, dropped or failed).
 *
 * <p>Every instance may release a job, and the first release in the job store's log wins on all of them
 * ({@link Job#after}). An instance whose release came second writes the winner's record again, so that the last
 * record of the job, all that compaction keeps and what an older kafka-mv takes, is the winner's too.
 */
final class WaitingJobs {

    private static final Logger LOG = LoggerFactory.getLogger(WaitingJobs.class);
    /** Offsets are read on the runner's thread: one try at a time, not the 15 s a CREATE waits for new topics. */
    private static final Duration OFFSETS_DEADLINE = Duration.ofSeconds(1);
    /** A release that cannot read its sources' offsets for this long (a source topic deleted) fails the job. */
    private static final Duration GIVE_UP = Duration.ofMinutes(2);

    private final JobStore store;
    private final Admin admin;
    /** Since when each job's release has failed here, by job id; the runner's thread only. */
    private final Map<Long, Long> failingSince = new ConcurrentHashMap<>();

    WaitingJobs(JobStore store, Admin admin) {
        this.store = store;
        this.admin = admin;
    }

    void reconcile(Job job) {
        boolean allCreated = true;
        for (long id : job.waitsFor()) {
            Optional<Job> awaited = store.job(id);
            Optional<String> lost = awaited.isEmpty() ? Optional.of(gone(id)) : whyNotCreated(awaited.get());
            if (lost.isPresent()) {
                cancel(job, lost.get());
                return;
            }
            allCreated &= awaited.get().status() == JobStatus.CREATED;
        }
        if (allCreated) {
            release(job);
        }
    }

    private void cancel(Job job, String reason) {
        // Another instance may have cancelled it, and its name been taken again, since this mirror last read.
        store.catchUpAppends();
        if (store.job(job.id()).map(current -> current.status() == JobStatus.WAITING).orElse(false)) {
            LOG.info("Job {} ({}) is cancelled: {}", job.id(), job.objectName(), reason);
            store.cancelCreate(job, reason);
        }
    }

    private void release(Job job) {
        store.catchUpAppends();
        if (!store.job(job.id()).map(current -> current.status() == JobStatus.WAITING).orElse(false)) {
            return;
        }
        Job released;
        try {
            Offsets.Range range = Offsets.ofNewJob(admin, PlanJson.fromTree(job.plan()), OFFSETS_DEADLINE);
            released = job.released(range.start(), range.end());
        } catch (RuntimeException e) {
            long now = System.nanoTime();
            long since = failingSince.computeIfAbsent(job.id(), id -> now);
            if (now - since > GIVE_UP.toNanos()) {
                failingSince.remove(job.id());
                store.put(job.withStatus(JobStatus.FAILED, "what it reads is created, but the offsets of its sources "
                    + "could not be read for " + GIVE_UP.toMinutes() + " minutes: " + e.getMessage()));
            } else {
                LOG.warn("Job {} ({}): what it reads is created, but its offsets cannot be read yet; trying again: {}",
                    job.id(), job.objectName(), e.toString());
            }
            return;
        }
        failingSince.remove(job.id());
        store.put(released);
        store.catchUpAppends();
        store.job(job.id())
            .filter(winner -> !winner.targetOffsets().equals(released.targetOffsets()))
            .filter(winner -> winner.status() == JobStatus.CREATING)
            .ifPresent(store::put);
        LOG.info("Job {} ({}): what it reads is created; it starts reading", job.id(), job.objectName());
    }

    /** A job it waited for was cleaned up already: its cancel's reason is still known here for a while. */
    private String gone(long id) {
        return store.cancelled(id).map(reason -> "a view it reads was not created (" + reason + ")")
            .orElse("the job creating a view it reads (" + id + ") is gone");
    }

    private static Optional<String> whyNotCreated(Job awaited) {
        String view = "materialized view \"" + awaited.objectName() + "\", which it reads, ";
        return switch (awaited.status()) {
            case WAITING, CREATING, CREATED -> Optional.empty();
            case CANCELLING -> Optional.of(view + "was cancelled" + reason(awaited));
            case FAILED -> Optional.of(view + "failed" + reason(awaited));
        };
    }

    private static String reason(Job job) {
        return job.failure() == null ? "" : " (" + job.failure() + ")";
    }
}
