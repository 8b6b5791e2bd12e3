package io.kafkamv.bench;

import io.kafkamv.bench.measure.Backfill;
import io.kafkamv.bench.measure.BatchQueries;
import io.kafkamv.bench.measure.BackgroundDdl;
import io.kafkamv.bench.measure.Micro;
import io.kafkamv.bench.measure.ProgressFidelity;
import io.kafkamv.bench.measure.Recovery;
import io.kafkamv.bench.measure.Scale;
import io.kafkamv.bench.measure.SteadyLoad;
import io.kafkamv.bench.measure.SteadyStateLatency;
import io.kafkamv.bench.report.BenchReport;
import io.kafkamv.bench.report.BenchResults;
import io.kafkamv.bench.report.PreviousReport;
import io.kafkamv.bench.report.ProgressPlot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/bench [--full]}: runs every measurement in one go and writes docs/benchmarks.md. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Measures kafka-mv against a hand-written Kafka Streams application and a raw consumer, "
        + "with kafka-mv's embedded broker and with an external one, and writes the report.")
public final class BenchCommand implements Callable<Integer> {

    @Option(names = "--full", description = "The full mode (10M rows, 100 views alone and 500 "
        + "shared, about an hour and a quarter); the default is the quick mode.")
    boolean full;

    @Option(names = "--service-jar", defaultValue = "ddl-service/target/kafka-mv.jar", description = "kafka-mv to measure.")
    Path serviceJar;

    @Option(names = "--output-dir", defaultValue = "docs", description = "Where benchmarks.md and the plot go.")
    Path outputDir;

    @Option(names = "--work-dir", description = "Broker, service and baseline data (default: a new temporary directory).")
    Path workDir;

    @Option(names = "--backfill-only", paramLabel = "QUERY", split = ",",
        description = "Only measure the backfill of these queries (${COMPLETION-CANDIDATES}), over --rows rows, and print "
            + "the results instead of writing the report: for looking into one number.")
    List<BackfillQuery> backfillOnly;

    @Option(names = "--queries-only", description = "Only measure batch SELECTs over a view of --rows events and an "
        + "INSERT of a million generated rows, with the embedded broker, and print the results: for looking into them.")
    boolean queriesOnly;

    @Option(names = "--latency-only", description = "Only measure the steady-state latency at --rate rows per second "
        + "for --seconds, with the embedded broker, and print it; after 30 s of a producer's rows, not reported, that "
        + "warm the service up as the full run's backfills do.")
    boolean latencyOnly;

    @Option(names = "--scale-only", split = ",", paramLabel = "VIEWS", description = "Only create this many views of "
        + "100,000 rows at once (a list: one step after the other), with an external broker as --full does, and print "
        + "the time, heap and threads of each step: for looking into many views.")
    List<Integer> scaleOnly;

    @Option(names = "--shared-views", description = "With --scale-only: create the views under shared_views = on, and "
        + "read the heap and threads once all of them run in the shared application.")
    boolean sharedViews;

    @Option(names = "--writes", split = ",", defaultValue = "INSERT,PRODUCER,PRODUCER_KEYED",
        description = "How --latency-only writes the rows (${COMPLETION-CANDIDATES}; default: all, one after the other).")
    List<SteadyStateLatency.Writes> writes;

    @Option(names = "--rate", defaultValue = "1000", description = "Rows per second for --latency-only (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--seconds", defaultValue = "10", description = "Seconds of --latency-only (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--setup", split = ",", defaultValue = "EMBEDDED,EXTERNAL",
        description = "Where the broker runs for --backfill-only (${COMPLETION-CANDIDATES}; default: both).")
    List<BrokerSetup> setups;

    @Option(names = "--rows", defaultValue = "1000000", description = "Source rows for --backfill-only (default: ${DEFAULT-VALUE}).")
    long rows;

    /** The measure of a large INSERT: a million generated rows. */
    private static final long INSERT_ROWS = 1_000_000;
    private static final Duration LATENCY_WARM_UP = Duration.ofSeconds(30);

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        BenchMode mode = full ? BenchMode.FULL : BenchMode.QUICK;
        Path work = workDir != null ? workDir : Files.createTempDirectory("kafka-mv-bench");
        Path logs = work.resolve("logs");
        long started = System.nanoTime();
        if (backfillOnly != null) {
            for (BrokerSetup setup : setups) {
                try (BenchStack stack = BenchStack.start(setup, serviceJar.toAbsolutePath(), work, logs, mode.scaleRows())) {
                    log("%s: appending events up to %,d", setup.title(), rows);
                    stack.growEventsTo(rows);
                    for (BackfillQuery query : backfillOnly) {
                        Backfill.Result result = new Backfill(stack.context(work, logs)).run(query, rows);
                        log("%s over %,d rows, %s: kafka-mv %.2f s, hand-written %.2f s, raw read %.2f s; "
                                + "kafka-mv / hand-written %.2fx, kafka-mv / raw read %.2fx", query.title(), rows,
                            setup.title(), result.kafkaMvSeconds(), result.handWrittenSeconds(), result.rawReadSeconds(),
                            result.ratioToHandWritten(), result.ratioToRawRead());
                        printChanges(outputDir.resolve("benchmarks.md"), List.of(result));
                    }
                }
            }
            return 0;
        }
        if (latencyOnly) {
            try (BenchStack stack = BenchStack.start(BrokerSetup.EMBEDDED, serviceJar.toAbsolutePath(), work, logs,
                mode.scaleRows())) {
                // The full run measures latency after its backfills; a service just started still compiles its write
                // path. Measured on 2 cores, three 10 s runs in a row: p50 243, 187, 155 ms (the full run: 126).
                // A producer's rows cross the most code: decoding, a repartition topic, a table, the view.
                log("warming the service up: %s at %d/s for %d s, not reported",
                    SteadyStateLatency.Writes.PRODUCER.title(), rate, LATENCY_WARM_UP.toSeconds());
                SteadyStateLatency.measure(stack.service(), SteadyStateLatency.Writes.PRODUCER, rate, LATENCY_WARM_UP);
                for (SteadyStateLatency.Writes way : writes) {
                    logLatency(SteadyStateLatency.measure(stack.service(), way, rate, Duration.ofSeconds(seconds)));
                }
            }
            return 0;
        }
        if (scaleOnly != null) {
            long rowsPerView = BenchMode.FULL.scaleRows();
            try (BenchStack stack = BenchStack.start(BrokerSetup.EXTERNAL, serviceJar.toAbsolutePath(), work, logs,
                rowsPerView)) {
                for (int i = 0; i < scaleOnly.size(); i++) {
                    logScale(Scale.measure(stack, "small", rowsPerView, scaleOnly.get(i), sharedViews,
                        i == scaleOnly.size() - 1));
                }
            }
            return 0;
        }
        if (queriesOnly) {
            try (BenchStack stack = BenchStack.start(BrokerSetup.EMBEDDED, serviceJar.toAbsolutePath(), work, logs,
                mode.scaleRows())) {
                stack.growEventsTo(rows);
                logBatchQueries(BatchQueries.measure(stack.service(), "events", rows, INSERT_ROWS));
            }
            return 0;
        }
        List<Backfill.Result> backfills = new ArrayList<>();
        List<BackgroundDdl.Result> ddl = new ArrayList<>();
        List<SteadyStateLatency.Result> latencies = new ArrayList<>();
        BatchQueries.Result queries;
        List<Scale.Result> scale = new ArrayList<>();
        // The README's setup first: the background backfills, whose progress the plot shows, and the measures
        // a user of the one-command start sees.
        try (BenchStack stack = BenchStack.start(BrokerSetup.EMBEDDED, serviceJar.toAbsolutePath(), work, logs,
            mode.scaleRows())) {
            for (long size : mode.sizes()) {
                log("embedded broker: appending events up to %,d", size);
                stack.growEventsTo(size);
                if (mode.backgroundDdlRows().contains(size)) {
                    log("background CREATE over %,d rows", size);
                    ddl.add(BackgroundDdl.measure(stack.service(), size));
                }
                if (mode.backfillRows().contains(size)) {
                    backfills.addAll(backfills(stack.context(work, logs), size));
                }
            }
            for (SteadyStateLatency.Writes way : SteadyStateLatency.Writes.values()) {
                log("steady-state latency, rows written by %s", way.title());
                latencies.add(SteadyStateLatency.measure(stack.service(), way, mode.latencyRate(), mode.latencyDuration()));
                logLatency(latencies.get(latencies.size() - 1));
            }
            log("batch queries over a view of %,d rows", mode.batchQueryRows());
            stack.growEventsTo(mode.batchQueryRows());
            queries = BatchQueries.measure(stack.service(), "events", mode.batchQueryRows(), INSERT_ROWS);
            logBatchQueries(queries);
        }
        Backfill.Result groupBy = backfills.stream()
            .filter(result -> result.query() == BackfillQuery.GROUP_BY_1K).findFirst().orElseThrow();
        Recovery.Result recovery;
        Backfill.Result uninterrupted = null;
        // A deployment's setup: foreground CREATEs timed by the client, a crash of kafka-mv that the broker outlives,
        // and many views.
        try (BenchStack stack = BenchStack.start(BrokerSetup.EXTERNAL, serviceJar.toAbsolutePath(), work, logs,
            mode.scaleRows())) {
            for (long size : mode.backfillRows()) {
                log("external broker: appending events up to %,d", size);
                stack.growEventsTo(size);
                for (Backfill.Result result : backfills(stack.context(work, logs), size)) {
                    backfills.add(result);
                    uninterrupted = result.query() == BackfillQuery.GROUP_BY_1K ? result : uninterrupted;
                }
            }
            log("recovery");
            recovery = Recovery.measure(stack.service(), BackfillQuery.GROUP_BY_1K, uninterrupted.rows());
            // Here, where the broker's threads and heap are not kafka-mv's.
            scale.addAll(scale(stack, mode.scaleRows(), mode.scaleViews(), false, mode.sharedScaleViews().isEmpty()));
            // A failed step leaves its views behind (they are dropped only after a step that finished).
            if (scale.stream().allMatch(step -> step.failure() == null)) {
                scale.addAll(scale(stack, mode.scaleRows(), mode.sharedScaleViews(), true, true));
            }
        }
        String plotFile = "benchmarks-progress.svg";
        Files.createDirectories(outputDir);
        Files.writeString(outputDir.resolve(plotFile), ProgressPlot.svg(String.format(Locale.ROOT,
                "Background CREATE MATERIALIZED VIEW (%s, %,d rows): SHOW JOBS progress",
                BackfillQuery.GROUP_BY_1K.title(), groupBy.rows()),
            groupBy.kafkaMv().samples(), groupBy.kafkaMvSeconds()));
        log("micro benchmarks");
        List<Micro.Result> micro = Micro.run(mode.quick());
        BenchResults results = new BenchResults(mode.name(), machine(), backfills, ddl,
            ProgressFidelity.of(groupBy.kafkaMv()), plotFile, latencies, queries, recovery, uninterrupted.kafkaMvSeconds(), scale, micro,
            (System.nanoTime() - started) / 60e9);
        Path report = outputDir.resolve("benchmarks.md");
        printChanges(report, backfills);
        Files.writeString(report, BenchReport.markdown(results));
        log("wrote %s", report);
        return 0;
    }

    /**
     * Each step of many views at once, up to the first that does not finish: the steps after it would only fail the same
     * way. With {@code steadyLoadOnLast}, the last step also measures its views' {@link SteadyLoad}.
     */
    private static List<Scale.Result> scale(BenchStack stack, long rowsPerView, List<Integer> steps, boolean shared,
                                            boolean steadyLoadOnLast) {
        List<Scale.Result> results = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            int views = steps.get(i);
            log("%d views at once%s", views, shared ? ", shared_views = on" : "");
            try {
                results.add(Scale.measure(stack, "small", rowsPerView, views, shared,
                    steadyLoadOnLast && i == steps.size() - 1));
                logScale(results.get(results.size() - 1));
            } catch (Exception failed) {
                // A step that overwhelms the instance is a result too.
                log("  %d views did not finish: %s", views, failed);
                results.add(Scale.Result.failed(views, shared, rowsPerView, failed));
                break;
            }
        }
        return results;
    }

    private static void logScale(Scale.Result result) {
        log("%d views of %,d rows%s: %.1f s (%.0f rows/s per view), heap %.0f MiB, resident %.0f MiB, %.0f live threads",
            result.views(), result.rowsPerView(), result.shared() ? ", shared" : "", result.seconds(),
            result.rowsPerSecondPerView(), result.heapMiB(), result.residentMiB(), result.threads());
        if (result.steady() != null) {
            SteadyLoad.Result steady = result.steady();
            log("  their source written at %,.0f rows/s for %.0f s: kafka-mv %.2f cores, broker %.2f cores (idle: %.2f and "
                + "%.2f)", steady.rate(), steady.seconds(), steady.serviceCores(), steady.brokerCores(),
                steady.idleServiceCores(), steady.idleBrokerCores());
        }
    }

    private static void logLatency(SteadyStateLatency.Result latency) {
        log("steady state, rows written by %s at %d/s (sent %.0f/s): p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d rows "
                + "looked up, %d late); their writes p50 %.1f ms, p99 %.1f ms", latency.writes().title(),
            latency.ratePerSecond(), latency.achievedRate(), latency.percentile(50), latency.percentile(99),
            latency.percentile(100), latency.latenciesMillis().size(), latency.lateLookups(),
            latency.writePercentile(50), latency.writePercentile(99));
    }

    private static void logBatchQueries(BatchQueries.Result queries) {
        for (BatchQueries.Scan scan : queries.scans()) {
            log("  %s over %,d rows: median %.1f ms, %,.0f rows per CPU second", scan.title(), queries.viewRows(),
                scan.medianMillis(), scan.rowsPerCpuSecond());
        }
        log("  INSERT of %,d generated rows: %.2f s (the first: %.2f s)", queries.insertedRows(), queries.insertSeconds(),
            queries.firstInsertSeconds());
    }

    /** What moved since the report this run replaces, before it is replaced. */
    private static void printChanges(Path report, List<Backfill.Result> backfills) throws IOException {
        if (Files.exists(report)) {
            log("backfill ratios against %s as it was:", report);
            PreviousReport.parse(Files.readString(report)).changes(backfills).forEach(line -> log("  %s", line));
        }
    }

    private static List<Backfill.Result> backfills(BenchContext context, long rows) throws Exception {
        List<Backfill.Result> results = new ArrayList<>();
        for (BackfillQuery query : BackfillQuery.values()) {
            log("backfill %s over %,d rows (%s)", query.title(), rows, context.setup().title());
            Backfill.Result result = new Backfill(context).run(query, rows);
            log("  kafka-mv %.2f s, hand-written %.2f s, raw read %.2f s", result.kafkaMvSeconds(),
                result.handWrittenSeconds(), result.rawReadSeconds());
            results.add(result);
        }
        return results;
    }

    private static String machine() throws IOException {
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
            .findFirst().map(line -> line.substring(line.indexOf(':') + 1).trim()).orElse("unknown CPU");
        String memory = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(line -> line.startsWith("MemTotal"))
            .findFirst().map(line -> Long.parseLong(line.replaceAll("\\D", "")) / (1024 * 1024) + " GiB").orElse("unknown");
        return String.format(Locale.ROOT, "%d cores (%s), %s memory, Java %s", Runtime.getRuntime().availableProcessors(),
            cpu, memory, System.getProperty("java.version"));
    }

    private static void log(String format, Object... args) {
        System.out.printf(Locale.ROOT, "bench: " + format + "%n", args);
    }
}
