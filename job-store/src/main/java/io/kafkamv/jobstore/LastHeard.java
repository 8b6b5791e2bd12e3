package io.kafkamv.jobstore;

import java.util.Set;

/**
 * What this instance last read of another's heartbeat: whether it said it stopped, and when this instance read it,
 * by this instance's {@link System#nanoTime} (never the writer's clock, which may be off).
 *
 * @param hydrated the created jobs whose local state the instance had restored whole then; null from a version that
 *                 did not say
 */
public record LastHeard(boolean stopped, long readAtNanos, Set<Long> hydrated) {
}
