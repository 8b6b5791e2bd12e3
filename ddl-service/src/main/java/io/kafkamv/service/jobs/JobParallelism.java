package io.kafkamv.service.jobs;

import io.kafkamv.jobstore.JobStore;

/** How many stream threads each instance gives a job: ALTER ... SET PARALLELISM's or WITH's, else the default. */
public final class JobParallelism {

    /**
     * Two, so that the stages of a backfill (source, exchange, aggregate or join) run side by side instead of taking
     * turns: a 1M-row GROUP BY became visible in 5.3 s instead of 7.3 s on two cores.
     */
    public static final int DEFAULT = 2;
    /** More threads than a job has partitions to share out only wait; more than this is surely a typo. */
    public static final int MAX = 64;

    private JobParallelism() {
    }

    public static int of(JobStore store, long jobId) {
        return store.parallelism(jobId).orElse(DEFAULT);
    }
}
