package io.kafkamv.jobstore;

/**
 * What this instance last read of another's heartbeat: whether it said it stopped, and when this instance read it,
 * by this instance's {@link System#nanoTime} (never the writer's clock, which may be off).
 */
public record LastHeard(boolean stopped, long readAtNanos) {
}
