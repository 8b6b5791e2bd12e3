package io.kafkamv.bench.report;

import io.kafkamv.bench.measure.Backfill;
import io.kafkamv.bench.measure.BatchQueries;
import io.kafkamv.bench.measure.BackgroundDdl;
import io.kafkamv.bench.measure.Micro;
import io.kafkamv.bench.measure.ProgressFidelity;
import io.kafkamv.bench.measure.Recovery;
import io.kafkamv.bench.measure.Scale;
import io.kafkamv.bench.measure.SteadyStateLatency;
import java.util.List;

/** Everything one run measured, for the report. */
public record BenchResults(String mode, String machine, List<Backfill.Result> backfills,
                           List<BackgroundDdl.Result> backgroundDdl, ProgressFidelity fidelity, String plotFile,
                           List<SteadyStateLatency.Result> latencies, BatchQueries.Result queries,
                           Recovery.Result recovery, double uninterruptedSeconds,
                           List<Scale.Result> scale, List<Micro.Result> micro, double runMinutes) {
}
