package io.kafkamv.bench.measure;

import io.kafkamv.bench.micro.DecoderBenchmark;
import io.kafkamv.bench.micro.RowCodecBenchmark;
import java.util.Comparator;
import java.util.List;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** The JMH benchmarks, in one forked JVM each, with fewer and shorter iterations in quick mode. */
public final class Micro {

    public record Result(String benchmark, double opsPerSecond, double error) {
    }

    private Micro() {
    }

    public static List<Result> run(boolean quick) throws RunnerException {
        var options = new OptionsBuilder()
            .include(DecoderBenchmark.class.getName() + "|" + RowCodecBenchmark.class.getName())
            .forks(1)
            .jvmArgs("-Xmx512m")
            .warmupIterations(quick ? 2 : 5)
            .warmupTime(TimeValue.seconds(1))
            .measurementIterations(quick ? 3 : 10)
            .measurementTime(TimeValue.seconds(quick ? 1 : 2))
            .build();
        return new Runner(options).run().stream()
            .map(Micro::result)
            .sorted(Comparator.comparing(Result::benchmark))
            .toList();
    }

    private static Result result(RunResult run) {
        String name = run.getParams().getBenchmark();
        return new Result(name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1),
            run.getPrimaryResult().getScore(), run.getPrimaryResult().getScoreError());
    }
}
