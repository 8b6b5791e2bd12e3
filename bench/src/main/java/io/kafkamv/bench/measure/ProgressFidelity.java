package io.kafkamv.bench.measure;

import java.util.List;

/**
 * What the progress samples of one backfill say about SHOW JOBS: whether the percentage only ever
 * grew, its largest step between two samples, and how long the view took to answer after 100%.
 */
public record ProgressFidelity(int samples, boolean monotonic, double largestJumpPercent, Double lagAfterFullSeconds) {

    public static ProgressFidelity of(ViewCreation creation) {
        List<ProgressSample> samples = creation.samples();
        boolean monotonic = true;
        double largestJump = samples.isEmpty() ? 0 : samples.get(0).fraction();
        Double lag = null;
        for (int i = 0; i < samples.size(); i++) {
            ProgressSample sample = samples.get(i);
            if (i > 0) {
                double step = sample.fraction() - samples.get(i - 1).fraction();
                monotonic &= step >= 0;
                largestJump = Math.max(largestJump, step);
            }
            if (lag == null && sample.fraction() >= 1.0) {
                lag = creation.visibleSeconds() - sample.millis() / 1000.0;
            }
        }
        if (!samples.isEmpty()) {
            largestJump = Math.max(largestJump, 1.0 - samples.get(samples.size() - 1).fraction());
        }
        return new ProgressFidelity(samples.size(), monotonic, largestJump * 100, lag);
    }
}
