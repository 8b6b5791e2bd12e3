package io.kafkamv.jobstore;

import java.time.Instant;
import java.util.Set;

/**
 * An instance's sign of life: written every few seconds while it runs, and once with {@code stopped} when it stops.
 * The others tell from it that the clients connected to an instance are gone (see {@link JobStore#lastHeard}); they go
 * by when they read it, never by {@code at}, the writer's clock, which is there for people reading the topic.
 *
 * @param hydrated the created jobs whose local state the instance has restored whole (a job it restores after a
 *                 restart is not among them); null from a version that did not say
 */
public record InstanceHeartbeat(String instance, boolean stopped, Instant at, Set<Long> hydrated) {
}
