package io.kafkamv.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kafkamv.bench.BackfillQuery;
import io.kafkamv.bench.BrokerSetup;
import io.kafkamv.bench.measure.Backfill;
import io.kafkamv.bench.measure.BackgroundDdl;
import io.kafkamv.bench.measure.BatchQueries;
import io.kafkamv.bench.measure.ProgressFidelity;
import io.kafkamv.bench.measure.ProgressSample;
import io.kafkamv.bench.measure.Recovery;
import io.kafkamv.bench.measure.Scale;
import io.kafkamv.bench.measure.SteadyStateLatency;
import io.kafkamv.bench.measure.ViewCreation;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchReportTest {

    @Test
    void saysWhatLimitsEachGoalNotMetAndNothingForOneMet() {
        String report = BenchReport.markdown(results(List.of(
            backfill(BackfillQuery.GROUP_BY_1K, 10.0, 30.0),
            backfill(BackfillQuery.GROUP_BY_ROW, 20.0, 10.0))));

        assertThat(goal(report, "GROUP BY (1,000 groups)")).endsWith("| 3.00× | yes |  |");
        assertThat(goal(report, "GROUP BY, one group per row")).contains("| 0.50× | **no** | " + GoalLimits.GROUP_PER_ROW);
    }

    @Test
    void judgesTheManyViewsGoalsOnTheStepsThatFinished() {
        BenchResults results = results(List.of(backfill(BackfillQuery.GROUP_BY_1K, 10.0, 30.0)));
        results = withScale(results, List.of(
            new Scale.Result(100, false, 100_000, 130.0, 850, 3000, 1130, null, null),
            new Scale.Result(100, true, 100_000, 140.0, 400, 2100, 31, null, null),
            Scale.Result.failed(500, true, 100_000, new IllegalStateException("too many open files"))));

        String report = BenchReport.markdown(results);

        assertThat(report).contains("| 100 | shared | 100,000 | 140.0 | 714 | 400 | 2100 | 31 |")
            .contains("| 500 | shared | 100,000 | did not finish: too many open files | | | | |");
        assertThat(goal(report, "100 views of 100,000 rows created in < 60 s"))
            .contains("| 130.0 s | **no** | " + GoalLimits.MANY_VIEWS_TIME);
        assertThat(goal(report, "500 views per instance"))
            .contains("| 500 views (shared): did not finish | **no** | " + GoalLimits.MANY_VIEWS_COUNT);
    }

    @Test
    void saysAManyViewsGoalWasNotMeasuredWhereNoStepMeasuredIt() {
        BenchResults results = withScale(results(List.of(backfill(BackfillQuery.GROUP_BY_1K, 10.0, 30.0))),
            List.of(new Scale.Result(10, false, 100_000, 7.0, 150, 900, 140, null, null)));

        String report = BenchReport.markdown(results);

        assertThat(goal(report, "100 views of 100,000 rows")).contains("| not measured | **no** | " + GoalLimits.NOT_MEASURED);
        assertThat(goal(report, "500 views per instance")).contains("| not measured | **no** | " + GoalLimits.NOT_MEASURED);
    }

    @Test
    void aJobThatStartedOverAfterItsKillFailsTheRecoveryGoal() {
        BenchResults resumed = results(List.of(backfill(BackfillQuery.GROUP_BY_1K, 10.0, 30.0)));
        BenchResults startedOver = withRecovery(resumed, new Recovery.Result(10_000_000, 0.5, 0.0, false, 30.0, 4.0));

        // 10M rows in 10 s uninterrupted: one 50 ms commit interval is 50,000 records.
        assertThat(goal(BenchReport.markdown(resumed), "a killed job resumes")).contains("| 0 vs 50,000 | yes |");
        assertThat(goal(BenchReport.markdown(startedOver), "a killed job resumes")).contains("| 5,000,000 vs 50,000 | **no** |");

        // A new generation shows the progress it had: only its generation tells that it read its sources again.
        BenchResults newGeneration = withRecovery(resumed, new Recovery.Result(10_000_000, 0.5, 0.5, true, 30.0, 4.0));
        String report = BenchReport.markdown(newGeneration);
        assertThat(goal(report, "a killed job resumes")).contains("| 5,000,000 vs 50,000 | **no** |");
        assertThat(report).contains("the job started over as its next generation");
    }

    /** The line of the goals table that begins with {@code start}. */
    private static String goal(String report, String start) {
        return Arrays.stream(report.substring(report.indexOf("## Goals")).split("\n")).filter(line -> line.startsWith("| " + start)).findFirst()
            .orElseThrow(() -> new AssertionError("no goal line starting with " + start + " in\n" + report));
    }

    private static Backfill.Result backfill(BackfillQuery query, double kafkaMvSeconds, double handWrittenSeconds) {
        return new Backfill.Result(BrokerSetup.EMBEDDED, query, 1_000_000,
            new ViewCreation("v", 1, 20, kafkaMvSeconds, List.of(new ProgressSample(200, 0.5))), handWrittenSeconds, 1.0);
    }

    private static BenchResults results(List<Backfill.Result> backfills) {
        ViewCreation creation = backfills.get(0).kafkaMv();
        return new BenchResults("test", "a machine", backfills, List.of(new BackgroundDdl.Result(10_000, List.of(40.0))),
            ProgressFidelity.of(creation), "plot.svg",
            List.of(new SteadyStateLatency.Result(SteadyStateLatency.Writes.PRODUCER, 1000, 1000.0, List.of(150.0),
                List.of(5.0), 0)),
            new BatchQueries.Result(1_000_000, List.of(new BatchQueries.Scan("count", "SELECT count(*) FROM v", 150, 3e6)),
                1_000_000, 1.0, 0.5),
            new Recovery.Result(10_000_000, 0.5, 0.5, false, 20.0, 4.0), 10.0, List.of(), List.of(), 1.0);
    }

    private static BenchResults withScale(BenchResults results, List<Scale.Result> scale) {
        return new BenchResults(results.mode(), results.machine(), results.backfills(), results.backgroundDdl(),
            results.fidelity(), results.plotFile(), results.latencies(), results.queries(), results.recovery(),
            results.uninterruptedSeconds(), scale, results.micro(), results.runMinutes());
    }

    private static BenchResults withRecovery(BenchResults results, Recovery.Result recovery) {
        return new BenchResults(results.mode(), results.machine(), results.backfills(), results.backgroundDdl(),
            results.fidelity(), results.plotFile(), results.latencies(), results.queries(), recovery,
            results.uninterruptedSeconds(), results.scale(), results.micro(), results.runMinutes());
    }
}
