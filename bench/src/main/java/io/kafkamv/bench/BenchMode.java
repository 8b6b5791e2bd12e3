package io.kafkamv.bench;

import java.time.Duration;
import java.util.List;

/** How much each measurement does: quick takes about ten minutes on two cores, full about an hour and a quarter. */
public record BenchMode(String name, List<Long> backfillRows, List<Long> backgroundDdlRows, int latencyRate,
                        Duration latencyDuration, long scaleRows, List<Integer> scaleViews,
                        List<Integer> sharedScaleViews) {

    public static final BenchMode QUICK = new BenchMode("quick", List.of(1_000_000L), List.of(10_000L, 1_000_000L),
        1_000, Duration.ofSeconds(10), 100_000, List.of(10), List.of());

    public static final BenchMode FULL = new BenchMode("full", List.of(1_000_000L, 10_000_000L),
        List.of(10_000L, 1_000_000L, 10_000_000L), 1_000, Duration.ofSeconds(60), 100_000, List.of(10, 50, 100),
        List.of(100, 500));

    public boolean quick() {
        return this == QUICK;
    }

    /** The rows of the view batch queries scan: its largest backfill's, and no more than 1M (the goal's size). */
    public long batchQueryRows() {
        return Math.min(1_000_000L, backfillRows.get(0));
    }

    /** Every source size the run grows the events topic through, smallest first. */
    public List<Long> sizes() {
        return java.util.stream.Stream.concat(backfillRows.stream(), backgroundDdlRows.stream()).distinct().sorted().toList();
    }
}
