package io.kafkamv.service.jobs;

import java.util.OptionalInt;

import io.kafkamv.jobstore.JobStore;

/**
 * How many stream threads each instance gives a job: ALTER ... SET PARALLELISM's or WITH's, else the instance's default
 * when the job started there ({@link #byDefault}).
 */
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

    /**
     * The threads of a job that sets none, started on an instance that runs {@code jobsHere} others: {@link #DEFAULT}
     * while the instance has a core to spare, else one ({@link JobShare} says why). Chosen when the job starts here and
     * kept while it runs: a change would move its tasks between threads, and the view could not be read here meanwhile.
     */
    public static int byDefault(int jobsHere) {
        return JobShare.forJobsHere(jobsHere).defaultThreads();
    }

    /** The threads ALTER ... SET PARALLELISM or WITH (parallelism = n) set for the job, if any. */
    public static OptionalInt set(JobStore store, long jobId) {
        return store.parallelism(jobId).map(OptionalInt::of).orElse(OptionalInt.empty());
    }
}
