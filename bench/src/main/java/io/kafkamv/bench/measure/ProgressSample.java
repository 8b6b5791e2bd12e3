package io.kafkamv.bench.measure;

/** A job's progress as SHOW JOBS reports it, {@code millis} after its CREATE was sent. */
public record ProgressSample(long millis, double fraction) {
}
