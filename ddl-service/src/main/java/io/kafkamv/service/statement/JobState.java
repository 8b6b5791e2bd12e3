package io.kafkamv.service.statement;

import java.util.Locale;

import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStore;

/** What a job is doing, as SHOW JOBS's progress and {@code kafka_mv.jobs.state} say it. */
enum JobState {
    /** Accepted over views still being created: reads nothing until they are created. */
    WAITING,
    /** Being created, waiting for one of the cluster's max_concurrent_creating_jobs slots. */
    QUEUED,
    /** Being created, its first progress not yet written: its Kafka Streams application joining and starting. */
    STARTING,
    BACKFILLING,
    /** PAUSE JOB: held where it is until RESUME JOB. */
    PAUSED,
    CREATED,
    FAILED,
    CANCELLING;

    static JobState of(Job job, JobStore store) {
        return of(job, store.paused(job.id()), store.queued().contains(job.id()));
    }

    static JobState of(Job job, boolean paused, boolean queued) {
        return switch (job.status()) {
            case CREATED -> CREATED;
            case FAILED -> FAILED;
            case CANCELLING -> CANCELLING;
            case WAITING -> WAITING;
            // A job held at rate 0 writes no progress: it is not starting, it is held.
            case CREATING -> paused ? PAUSED
                : queued ? QUEUED
                : job.backfillOffsets().isEmpty() && job.rateLimit() != 0 ? STARTING : BACKFILLING;
        };
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
