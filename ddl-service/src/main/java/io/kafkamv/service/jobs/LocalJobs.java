package io.kafkamv.service.jobs;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The jobs whose Kafka Streams instance runs on this instance, by job id, and the shared application with its
 * members: started and stopped by {@link JobRunner}'s loop, read by {@link ViewReads} from any thread.
 */
final class LocalJobs {

    private final Map<Long, ViewRuntime> runtimes = new ConcurrentHashMap<>();
    /** The shared application here, while it runs: its members run in no application of their own. */
    private volatile SharedRuntime shared;

    Optional<ViewRuntime> get(long jobId) {
        return Optional.ofNullable(runtimes.get(jobId));
    }

    /** The job's object here, in its own application or the shared one. */
    Optional<LocalView> view(long jobId) {
        ViewRuntime own = runtimes.get(jobId);
        if (own != null) {
            return Optional.of(own);
        }
        SharedRuntime current = shared;
        return current == null ? Optional.empty() : current.member(jobId);
    }

    /** Every object here, in its own application or the shared one. */
    List<LocalView> views() {
        List<LocalView> views = new java.util.ArrayList<>(runtimes.values());
        SharedRuntime current = shared;
        if (current != null) {
            views.addAll(current.views());
        }
        return views;
    }

    Optional<SharedRuntime> shared() {
        return Optional.ofNullable(shared);
    }

    /** Makes {@code next} the shared application here (null: none) and returns the one it replaces, to be closed. */
    Optional<SharedRuntime> replaceShared(SharedRuntime next) {
        SharedRuntime previous = shared;
        shared = next;
        return Optional.ofNullable(previous);
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
