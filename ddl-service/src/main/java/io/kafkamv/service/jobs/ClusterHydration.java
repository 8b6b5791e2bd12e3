package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.Map;

import io.kafkamv.jobstore.LastHeard;

/**
 * Whether a created job's local state is whole on every instance: the one asking, as it knows now, and every other
 * heard from lately, as its last heartbeat said. A view's rows are read from all instances, so until then some of them
 * are older than its sources (after a restart, while its stores are restored from their changelogs).
 */
final class ClusterHydration {

    private ClusterHydration() {
    }

    /**
     * @param here   whether this instance has the job's state whole
     * @param heard  the last heartbeat of each instance, this one's too (skipped)
     * @param silence how long an instance may be silent before it counts as gone (it stopped or died)
     */
    static boolean hydrated(long jobId, boolean here, String self, Map<String, LastHeard> heard, long nowNanos,
                            Duration silence) {
        if (!here) {
            return false;
        }
        for (Map.Entry<String, LastHeard> instance : heard.entrySet()) {
            LastHeard last = instance.getValue();
            boolean alive = !last.stopped() && nowNanos - last.readAtNanos() <= silence.toNanos();
            // An older version does not say: it is taken at its word.
            if (!instance.getKey().equals(self) && alive && last.hydrated() != null && !last.hydrated().contains(jobId)) {
                return false;
            }
        }
        return true;
    }
}
