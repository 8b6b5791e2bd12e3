package io.kafkamv.service.jobs;

import java.time.Duration;

/**
 * What an instance gives a job it starts, by how busy it is then: a job started on an instance that already runs as
 * many jobs as it has cores shares cores the others keep busy. It then runs one stream thread unless its
 * PARALLELISM says otherwise ({@link JobParallelism#byDefault}), and commits every second instead of every 200 ms:
 * each commit is a transaction, whose markers the broker writes to every partition the job wrote to. With 50 views
 * being created on one instance that took a quarter of the broker's CPU and a seventh of the service's, and the 50 took
 * 142-147 s instead of 115-120 s (issue 21). What a longer interval costs: FLUSH, and a view's becoming visible once
 * it has caught up, wait for a commit, up to 0.8 s more. Chosen when the job starts and kept while it runs.
 */
record JobShare(int defaultThreads, Duration commitInterval) {

    /** Progress and FLUSH read committed offsets: often enough for both to feel live. */
    static final Duration COMMIT_INTERVAL = Duration.ofMillis(200);
    static final Duration BUSY_COMMIT_INTERVAL = Duration.ofSeconds(1);

    static JobShare forJobsHere(int jobsHere) {
        return busy(jobsHere) ? new JobShare(1, BUSY_COMMIT_INTERVAL)
            : new JobShare(JobParallelism.DEFAULT, COMMIT_INTERVAL);
    }

    /** Whether an instance that runs {@code jobsHere} jobs has no core to spare for the next. */
    static boolean busy(int jobsHere) {
        return jobsHere >= Runtime.getRuntime().availableProcessors();
    }
}
