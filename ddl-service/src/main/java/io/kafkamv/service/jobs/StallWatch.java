package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongPredicate;
import java.util.function.Supplier;

/**
 * Since when each job has stood at the same position (its backfill's offsets, or what it has left to restore), and
 * the transactions open on its partitions halfway to the limit: what tells a job that stalls, and one held by a
 * transaction nothing will end ({@link HangingTransactions}) from one that stalls for another reason.
 */
final class StallWatch {

    private final Duration limit;
    private final Map<Long, Stall> stalls = new ConcurrentHashMap<>();

    StallWatch(Duration limit) {
        this.limit = limit;
    }

    /** What the watch says of a job at its position now. */
    sealed interface Verdict permits Moving, Stalled, Held {
    }

    /** Moved since the last look, or not for long. */
    record Moving() implements Verdict {
    }

    /** Stood still for the limit; {@code open} is what was open on its partitions then. */
    record Stalled(List<HangingTransactions.Open> open) implements Verdict {
    }

    /** Stood still for the limit, held by transactions nothing will end. */
    record Held(List<HangingTransactions.Open> hanging) implements Verdict {
    }

    private record Stall(Object position, long since, long halfwayAt, List<HangingTransactions.Open> openHalfway) {
    }

    /**
     * Looks at the job at {@code position}. Asks {@code open} for the transactions open on its partitions halfway to the
     * limit and at it, so that a transaction open at both looks is one its coordinator did not end within several of
     * its timeouts. A verdict other than {@link Moving} starts the watch of the job over.
     */
    Verdict look(long jobId, Object position, long now, Supplier<List<HangingTransactions.Open>> open) {
        Stall last = stalls.get(jobId);
        if (last == null || !last.position().equals(position)) {
            stalls.put(jobId, new Stall(position, now, 0, null));
            return new Moving();
        }
        long half = limit.toNanos() / 2;
        if (last.openHalfway() == null) {
            if (now - last.since() > half) {
                long before = System.nanoTime();
                List<HangingTransactions.Open> openHalfway = open.get();
                // When the look ended: one that took long leaves less time before the next.
                stalls.put(jobId, new Stall(position, last.since(), now + (System.nanoTime() - before), openHalfway));
            }
            return new Moving();
        }
        // Half the limit after the halfway look too, however late that look came (a busy runner thread).
        if (now - last.since() <= limit.toNanos() || now - last.halfwayAt() < half) {
            return new Moving();
        }
        stalls.remove(jobId);
        List<HangingTransactions.Open> openNow = open.get();
        List<HangingTransactions.Open> hanging = HangingTransactions.hanging(last.openHalfway(), openNow);
        return hanging.isEmpty() ? new Stalled(openNow) : new Held(hanging);
    }

    /** Forgets the job's position: it is held on purpose, or done. */
    void forget(long jobId) {
        stalls.remove(jobId);
    }

    void retainOnly(LongPredicate watched) {
        stalls.keySet().removeIf(id -> !watched.test(id));
    }
}
