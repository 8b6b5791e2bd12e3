package io.kafkamv.service.jobs;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The jobs whose Kafka Streams instance runs on this instance, by job id: started and stopped by
 * {@link JobRunner}'s loop, read by {@link ViewReads} from any thread.
 */
final class LocalJobs {

    private final Map<Long, ViewRuntime> runtimes = new ConcurrentHashMap<>();

    Optional<ViewRuntime> get(long jobId) {
        return Optional.ofNullable(runtimes.get(jobId));
    }

    boolean runs(long jobId) {
        return runtimes.containsKey(jobId);
    }

    void add(long jobId, ViewRuntime runtime) {
        runtimes.put(jobId, runtime);
    }

    /** Forgets the job here and returns its runtime, for the caller to stop. */
    Optional<ViewRuntime> remove(long jobId) {
        return Optional.ofNullable(runtimes.remove(jobId));
    }

    Set<Long> ids() {
        return Set.copyOf(runtimes.keySet());
    }

    Map<Long, ViewRuntime> byId() {
        return Map.copyOf(runtimes);
    }

    Collection<ViewRuntime> all() {
        return List.copyOf(runtimes.values());
    }

    void clear() {
        runtimes.clear();
    }
}
