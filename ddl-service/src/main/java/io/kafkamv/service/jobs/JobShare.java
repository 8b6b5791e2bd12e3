package io.kafkamv.service.jobs;

import java.time.Duration;

/**
 * What an instance gives a job it starts, by how busy it is then: a job started on an instance that already runs as
 * many jobs as it has cores shares cores the others keep busy. It then runs one stream thread unless its
 * PARALLELISM says otherwise ({@link JobParallelism#byDefault}), and commits every second instead of every 50 ms:
 * each commit is a transaction, whose markers the broker writes to every partition the job wrote to. With 50 views
 * being created on one instance that took a quarter of the broker's CPU and a seventh of the service's, and the 50 took
 * 142-147 s instead of 115-120 s (issue 21). What a longer interval costs: FLUSH, and a view's becoming visible once
 * it has caught up, wait for a commit, up to 0.95 s more. Chosen when the job starts and kept while it runs.
 */
record JobShare(int defaultThreads, Duration commitInterval) {

    /**
     * Progress and FLUSH read committed offsets, and a row that crosses a repartition topic (a source keyed by
     * something other than its primary key) is read by the next step once the commit that wrote it is done. Kafka
     * Streams' own default for exactly once. Measured on 2 cores, rows written by a producer at 1,000/s into such a
     * source, a warmed service: visible after p50 154 ms, p99 261 ms with 200 ms; p50 91 ms, p99 175 ms with 100 ms;
     * p50 49-51 ms, p99 93-103 ms with this. Backfills of 1M rows took as long with each (GROUP BY 1,000 groups, one
     * group per row, and a filter); under 100 shared views whose source was written at 1,000 rows/s the broker used
     * 0.66 cores instead of 0.58 with 100 ms. It was taken back once: the first CI run with it had a view stall after
     * kill -9 of an instance with its embedded broker, which was a transaction the restarted broker left hanging;
     * a job held by one now starts over ({@link HangingTransactions}).
     */
    static final Duration COMMIT_INTERVAL = Duration.ofMillis(50);
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
