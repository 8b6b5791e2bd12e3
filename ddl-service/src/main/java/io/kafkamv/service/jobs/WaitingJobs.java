package io.kafkamv.service.jobs;

import java.util.List;
import java.util.Optional;

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
 * one of them will not be created (cancelled, dropped or failed). Every instance may release a job: the first
 * release in the job store's log wins on all of them ({@link Job#after}).
 */
final class WaitingJobs {

    private static final Logger LOG = LoggerFactory.getLogger(WaitingJobs.class);

    private final JobStore store;
    private final Admin admin;

    WaitingJobs(JobStore store, Admin admin) {
        this.store = store;
        this.admin = admin;
    }

    void reconcile(Job job) {
        boolean allCreated = true;
        for (long id : job.waitsFor()) {
            Optional<Job> awaited = store.job(id);
            Optional<String> lost = awaited.isEmpty() ? Optional.of("the job creating a view it reads (" + id + ") is gone")
                : whyNotCreated(awaited.get());
            if (lost.isPresent()) {
                LOG.info("Job {} ({}) is cancelled: {}", job.id(), job.objectName(), lost.get());
                store.cancelCreate(job, lost.get());
                return;
            }
            allCreated &= awaited.get().status() == JobStatus.CREATED;
        }
        if (!allCreated) {
            return;
        }
        try {
            Offsets.Range range = Offsets.ofNewJob(admin, PlanJson.fromTree(job.plan()));
            store.put(job.released(range.start(), range.end()));
            LOG.info("Job {} ({}): what it reads is created; it starts reading", job.id(), job.objectName());
        } catch (RuntimeException e) {
            LOG.warn("Job {} ({}): what it reads is created, but its offsets cannot be read yet; trying again shortly",
                job.id(), job.objectName(), e);
        }
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
