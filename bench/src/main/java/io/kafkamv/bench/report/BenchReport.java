package io.kafkamv.bench.report;

import io.kafkamv.bench.BackfillQuery;
import io.kafkamv.bench.BrokerSetup;
import io.kafkamv.bench.measure.Backfill;
import io.kafkamv.bench.measure.BatchQueries;
import io.kafkamv.bench.measure.BackgroundDdl;
import io.kafkamv.bench.measure.Micro;
import io.kafkamv.bench.measure.Scale;
import io.kafkamv.bench.measure.SteadyStateLatency;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** docs/benchmarks.md: the tables, the ratios and the goals of one run, written from its results only. */
public final class BenchReport {

    /** kafka-mv commits every 50 ms (JobShare.COMMIT_INTERVAL, which the bench cannot see), so a crash loses at most this. */
    private static final double COMMIT_INTERVAL_SECONDS = 0.05;

    private BenchReport() {
    }

    public static String markdown(BenchResults results) {
        StringBuilder md = new StringBuilder();
        md.append("# Benchmarks\n\n")
            .append("Written by `bin/bench").append(results.mode().equals("full") ? " --full" : "").append("` (")
            .append(String.format(Locale.ROOT, "%.1f", results.runMinutes())).append(" minutes); do not edit by hand.\n")
            .append("Machine: ").append(results.machine()).append(".\n\n")
            .append("Every contender runs in its own JVM with `-Xmx1g`, one after the other, against the same ")
            .append("single-node KRaft broker and the same topic of JSON events (`{\"id\", \"g\", \"v\"}`, 4 partitions, ")
            .append("1,000 groups). The backfills run in two setups: the broker embedded in kafka-mv, as the README's ")
            .append("one command starts it, where background CREATE latency, progress and steady-state latency are ")
            .append("measured too; and an external broker in its own JVM, as a deployment runs it, where recovery and ")
            .append("many views are. Ratios are throughput ratios measured in this run: above 1 means kafka-mv was ")
            .append("faster.\n\n");

        md.append("## Backfill: CREATE MATERIALIZED VIEW to queryable\n");
        for (BrokerSetup setup : BrokerSetup.values()) {
            md.append("\n### ").append(setup.title()).append("\n\n")
                .append("| query | rows | kafka-mv s | hand-written Kafka Streams s | raw read s | kafka-mv / hand-written | kafka-mv / raw read |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|\n");
            for (Backfill.Result backfill : results.backfills()) {
                if (backfill.setup() == setup) {
                    md.append(String.format(Locale.ROOT, "| %s | %,d | %.2f | %.2f | %.2f | %.2f× | %.2f× |%n",
                        backfill.query().title(), backfill.rows(), backfill.kafkaMvSeconds(), backfill.handWrittenSeconds(),
                        backfill.rawReadSeconds(), backfill.ratioToHandWritten(), backfill.ratioToRawRead()));
                }
            }
        }
        md.append("\nkafka-mv with its embedded broker (`--kafka-port`, the broker in its JVM and heap): background "
                + "CREATE until `GET /v1/views/{name}/rows` answers. With an external broker (a single-node KRaft "
                + "broker in its own JVM, kafka-mv started with `--bootstrap-servers`): a foreground CREATE over "
                + "pgjdbc, timed until it returns. Hand-written: from its start until it has committed the end of ")
            .append("its source and repartition topics, the criterion kafka-mv uses for visibility. Both first run the ")
            .append("same query over a 100,000-row topic of the same events, in the same JVM, so that neither pays ")
            .append("its JIT warm-up in the measured time. Raw read: a KafkaConsumer reading the bytes to the end.\n\n")
            .append("Queries:\n\n");
        for (BackfillQuery query : BackfillQuery.values()) {
            md.append("- ").append(query.title()).append(": `").append(query.sql()).append("`\n");
        }
        md.append("\nThe hand-written join looks each event up in a GlobalKTable of `dims`: no exchange and no store of "
            + "events, so a later change to a `dims` row leaves the rows it joined as they were. kafka-mv's lookup join "
            + "(`FOR SYSTEM_TIME AS OF PROCTIME()`, over `dims_by_g`, a table of the same dims keyed by `g`) does the same. Its regular "
            + "join keeps both sides, keyed by the join key, so that such a change re-emits them and the view stays "
            + "equal to its query; that work is in its ratio.\n");

        md.append("\n## Background CREATE latency\n\n| source rows | median ms | max ms |\n|---:|---:|---:|\n");
        for (BackgroundDdl.Result ddl : results.backgroundDdl()) {
            md.append(String.format(Locale.ROOT, "| %,d | %.1f | %.1f |%n", ddl.sourceRows(), ddl.median(), ddl.max()));
        }

        md.append("\n## Progress fidelity\n\n")
            .append(String.format(Locale.ROOT, "SHOW JOBS sampled every 200 ms during the %s backfill: %d samples, %s, ",
                BackfillQuery.GROUP_BY_1K.title(), results.fidelity().samples(),
                results.fidelity().monotonic() ? "never went backwards" : "WENT BACKWARDS"))
            .append(String.format(Locale.ROOT, "largest step %.2f percentage points; ", results.fidelity().largestJumpPercent()))
            .append(results.fidelity().lagAfterFullSeconds() == null ? "never seen at 100% before the view answered."
                : String.format(Locale.ROOT, "queryable %.2f s after it first showed 100%%.", results.fidelity().lagAfterFullSeconds()))
            .append("\n\n![progress of a background backfill](").append(results.plotFile()).append(")\n");

        md.append("\n## Steady-state latency\n\nRows written at a fixed rate while, after 5 s of warm-up, other "
            + "connections look about 25 of them a second up by key in the view, every 5 ms until there: the time from sending a row to seeing it. "
            + "INSERT statements go to a table through pgjdbc, as many connections as the rate needs; the producer "
            + "sends JSON records keyed by their primary keys to the topic of a source with that primary key, which "
            + "either re-keys them by the key it reads from each value (a repartition topic) or, told so with "
            + "`key.is_primary_key`, keeps them in the partitions they are read from.\n\n"
            + "| rows written by | rate | sent | rows looked up (begun late) | p50 ms | p99 ms | max ms | write p99 ms |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (SteadyStateLatency.Result latency : results.latencies()) {
            md.append(String.format(Locale.ROOT, "| %s | %,d/s | %,.0f/s | %d (%d) | %.1f | %.1f | %.1f | %.1f |%n",
                latency.writes().title(), latency.ratePerSecond(), latency.achievedRate(),
                latency.latenciesMillis().size(), latency.lateLookups(), latency.percentile(50),
                latency.percentile(99), latency.percentile(100), latency.writePercentile(99)));
        }

        BatchQueries.Result queries = results.queries();
        md.append(String.format(Locale.ROOT, "%n## Batch queries%n%nSELECTs over a created view of %,d events "
                + "(`SELECT id, g, v FROM events WHERE id < %d`) with the embedded broker, over pgjdbc, reading the whole "
                + "result: the median of five runs after one unmeasured, and the rows scanned per second of the service's "
                + "CPU over the five (its background work included).%n%n| query | median ms | rows per CPU second |%n"
                + "|---|---:|---:|%n", queries.viewRows(), queries.viewRows()));
        for (BatchQueries.Scan scan : queries.scans()) {
            md.append(String.format(Locale.ROOT, "| `%s` | %.1f | %,.0f |%n", scan.sql(), scan.medianMillis(),
                scan.rowsPerCpuSecond()));
        }
        md.append(String.format(Locale.ROOT, "%n`INSERT INTO t SELECT generate_series(1, %d)` into a table with a "
            + "primary key, each into a new table, until it returned: %.2f s, the median of three after a first one of "
            + "%.2f s (the first INSERT of the service's life, which compiles its write path as it goes).%n",
            queries.insertedRows(), queries.insertSeconds(), queries.firstInsertSeconds()));
        var recovery = results.recovery();
        long perCommit = Math.round(recovery.rows() / results.uninterruptedSeconds() * COMMIT_INTERVAL_SECONDS);
        md.append(String.format(Locale.ROOT, "%n## Recovery%n%nWith the external broker, the %s background backfill of "
                + "%,d rows, service killed with SIGKILL "
                + "at %.2f%% and started again on the same data dir (%.1f s to ready): the job %s at %.2f%%, "
                + "%,d source records behind the last progress seen before the kill (one 50 ms commit interval is "
                + "about %,d here; records processed since the last commit are discarded by the kill and not in this "
                + "count, so it shows that the restart resumed, not what the kill cost); it finished "
                + "%.1f s after CREATE, against %.1f s for the foreground CREATE of the same view uninterrupted (by a "
                + "warm service: the restarted one is cold, so part of the difference is its JIT).%n",
            BackfillQuery.GROUP_BY_1K.title(), recovery.rows(), recovery.killedAt() * 100, recovery.restartSeconds(),
            recovery.startedOver() ? "started over as its next generation (its state could not be resumed), its "
                + "progress shown" : "resumed",
            recovery.resumedAt() * 100, recovery.recordsBehindLastProgress(), perCommit, recovery.totalSeconds(),
            results.uninterruptedSeconds()));

        md.append("\n## Many views on one instance\n\nGROUP BY views of one source created at once in the "
                + "background, until WAIT returned. Own applications: each view its own Kafka Streams application. "
                + "Shared: under `shared_views = on`, with heap, memory and threads read once every view had moved "
                + "into the shared application.\n\n")
            .append("| views | applications | rows each | seconds for all | rows/s per view | heap used MiB | resident MiB "
                + "| live threads |\n")
            .append("|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (Scale.Result scale : results.scale()) {
            String applications = scale.shared() ? "shared" : "own";
            if (scale.failure() != null) {
                md.append(String.format(Locale.ROOT, "| %d | %s | %,d | did not finish: %s | | | | |%n", scale.views(),
                    applications, scale.rowsPerView(), scale.failure().replace('|', '/').replace('\n', ' ')));
                continue;
            }
            md.append(String.format(Locale.ROOT, "| %d | %s | %,d | %.1f | %,.0f | %.0f | %.0f | %.0f |%n", scale.views(),
                applications, scale.rowsPerView(), scale.seconds(), scale.rowsPerSecondPerView(), scale.heapMiB(),
                scale.residentMiB(), scale.threads()));
        }
        for (Scale.Result scale : results.scale()) {
            if (scale.steady() != null) {
                var steady = scale.steady();
                md.append(String.format(Locale.ROOT, "%nThe %d views (%s applications) while their source was written at "
                        + "%,.0f rows/s for %.0f s: kafka-mv used %.2f cores and the broker %.2f (idle, before: %.2f and %.2f). "
                        + "Each view's commit is a transaction, whose markers the broker writes to every partition the view "
                        + "wrote since the last.%n", scale.views(), scale.shared() ? "shared" : "own", steady.rate(),
                    steady.seconds(), steady.serviceCores(), steady.brokerCores(), steady.idleServiceCores(),
                    steady.idleBrokerCores()));
            }
        }

        md.append("\n## Micro benchmarks (JMH, operations per second)\n\n| benchmark | ops/s | ± |\n|---|---:|---:|\n");
        for (Micro.Result micro : results.micro()) {
            md.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f |%n", micro.benchmark(), micro.opsPerSecond(), micro.error()));
        }

        md.append("\n## Goals\n\nWhat limits a goal not met is what docs/concepts.md found about it in earlier runs, "
            + "not a result of this one.\n\n| goal | measured | met | what limits it |\n|---|---|---|---|\n");
        for (Backfill.Result backfill : results.backfills()) {
            String where = String.format(Locale.ROOT, ", %,d rows, %s broker", backfill.rows(),
                backfill.setup().name().toLowerCase(Locale.ROOT));
            String ratio = String.format(Locale.ROOT, "%.2f×", backfill.ratioToHandWritten());
            switch (backfill.query()) {
                case GROUP_BY_1K -> goal(md, "GROUP BY (1,000 groups) ≥ 2.5× hand-written" + where, ratio,
                    backfill.ratioToHandWritten() >= 2.5, GoalLimits.GROUP_BY);
                case FILTER -> goal(md, "projection + filter ≥ 0.9× hand-written and ≥ 0.3× raw read" + where,
                    String.format(Locale.ROOT, "%.2f×, %.2f×", backfill.ratioToHandWritten(), backfill.ratioToRawRead()),
                    backfill.ratioToHandWritten() >= 0.9 && backfill.ratioToRawRead() >= 0.3, GoalLimits.PROJECTION);
                case GROUP_BY_ROW -> goal(md, "GROUP BY, one group per row ≥ 1× hand-written" + where, ratio,
                    backfill.ratioToHandWritten() >= 1, GoalLimits.GROUP_PER_ROW);
                case LOOKUP_JOIN -> goal(md, "lookup join ≥ 1× hand-written" + where, ratio, backfill.ratioToHandWritten() >= 1,
                    GoalLimits.NOT_ANALYSED);
                case JOIN -> md.append("| join keeping both sides (no goal: the lookup join is the hand-written app's)")
                    .append(where).append(" | ").append(ratio).append(" | — | ").append(GoalLimits.JOIN).append(" |\n");
            }
        }
        double slowest = results.backgroundDdl().stream().mapToDouble(BackgroundDdl.Result::max).max().orElse(0);
        goal(md, "background CREATE < 100 ms at every source size", String.format(Locale.ROOT, "max %.1f ms", slowest),
            slowest < 100, GoalLimits.NOT_ANALYSED);
        for (BatchQueries.Scan scan : queries.scans()) {
            goal(md, String.format(Locale.ROOT, "batch %s over %,d rows < 200 ms and ≥ 5M rows per CPU second",
                    scan.title(), queries.viewRows()),
                String.format(Locale.ROOT, "%.1f ms, %,.0f", scan.medianMillis(), scan.rowsPerCpuSecond()),
                scan.medianMillis() < 200 && scan.rowsPerCpuSecond() >= 5e6, GoalLimits.BATCH_SCAN);
        }
        goal(md, String.format(Locale.ROOT, "INSERT of %,d generated rows < 2 s", queries.insertedRows()),
            String.format(Locale.ROOT, "%.2f s", queries.insertSeconds()), queries.insertSeconds() < 2, GoalLimits.NOT_ANALYSED);
        for (SteadyStateLatency.Result latency : results.latencies()) {
            goal(md, String.format(Locale.ROOT, "write-to-visible p99 < 100 ms at 1,000 rows/s, rows written by %s",
                    latency.writes().title()),
                String.format(Locale.ROOT, "%.1f ms at %,.0f rows/s", latency.percentile(99), latency.achievedRate()),
                latency.meetsGoal(), latency.writes() == SteadyStateLatency.Writes.PRODUCER ? GoalLimits.REPARTITIONED_LATENCY
                    : GoalLimits.NOT_ANALYSED);
        }
        goal(md, "a killed job resumes from its persisted progress: ≤ one commit interval of records behind it",
            String.format(Locale.ROOT, "%,d vs %,d", recovery.recordsBehindLastProgress(), perCommit),
            recovery.recordsBehindLastProgress() <= perCommit, GoalLimits.NOT_ANALYSED);
        manyViewsGoals(md, results.scale());
        return md.toString();
    }

    /**
     * The many-views goals. Creation is the same with sharing on (views move once created): the time is the own
     * applications' 100-view step's. The count is the largest shared step's.
     */
    private static void manyViewsGoals(StringBuilder md, List<Scale.Result> scale) {
        String created = "100 views of 100,000 rows created in < 60 s";
        scale.stream().filter(step -> !step.shared() && step.views() == 100).findFirst().ifPresentOrElse(
            step -> goal(md, created, step.failure() == null ? String.format(Locale.ROOT, "%.1f s", step.seconds())
                : "did not finish", step.failure() == null && step.seconds() < 60, GoalLimits.MANY_VIEWS_TIME),
            () -> goal(md, created, "not measured", false, GoalLimits.NOT_MEASURED));
        String many = "500 views per instance in a 2 GiB heap with < 200 threads";
        scale.stream().filter(Scale.Result::shared).max(Comparator.comparingInt(Scale.Result::views)).ifPresentOrElse(
            step -> goal(md, many, step.failure() == null
                    ? String.format(Locale.ROOT, "%d views (shared): %.0f MiB heap, %.0f threads", step.views(),
                        step.heapMiB(), step.threads())
                    : String.format(Locale.ROOT, "%d views (shared): did not finish", step.views()),
                step.failure() == null && step.views() >= 500 && step.heapMiB() < 2048 && step.threads() < 200,
                GoalLimits.MANY_VIEWS_COUNT),
            () -> goal(md, many, "not measured", false, GoalLimits.NOT_MEASURED));
    }

    private static void goal(StringBuilder md, String goal, String measured, boolean met, String limit) {
        md.append("| ").append(goal).append(" | ").append(measured).append(" | ").append(met ? "yes" : "**no**")
            .append(" | ").append(met ? "" : limit).append(" |\n");
    }
}
