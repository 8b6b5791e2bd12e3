package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.Optional;

import io.kafkamv.connectors.registry.SchemaRegistryException;

/**
 * How long a job's stream thread waits before it retries after the Schema Registry was unavailable:
 * one second, doubling to half a minute while the outage lasts, and one second again after a quiet
 * spell. A registry that is down for a while must not fail a job that would finish once it is back.
 */
final class RegistryOutageRetry {

    private static final Duration FIRST = Duration.ofSeconds(1);
    private static final Duration MOST = Duration.ofSeconds(30);
    /** An outage that ended this long ago is over: the next one starts again at the first delay. */
    private static final Duration QUIET = Duration.ofMinutes(5);

    private Duration last;
    private long lastAt;

    /** The registry's transient failure among the exception and its causes, if there is one. */
    static Optional<SchemaRegistryException> outage(Throwable exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SchemaRegistryException registry) {
                return registry.isTransient() ? Optional.of(registry) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The delay before the next attempt, longer each time during one outage. */
    synchronized Duration next(long nowNanos) {
        boolean sameOutage = last != null && nowNanos - lastAt < QUIET.toNanos();
        last = sameOutage ? min(last.multipliedBy(2), MOST) : FIRST;
        lastAt = nowNanos;
        return last;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
