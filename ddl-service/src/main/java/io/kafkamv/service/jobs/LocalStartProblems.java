package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Jobs this instance could not start or keep running, and when it tries again. A reason on one instance (a
 * broker that is slow, a state directory it cannot use, a Kafka Streams client that failed) is this instance's
 * problem, not the job's: the job is neither failed nor given up, for the whole cluster or here; this instance
 * tries again after one second, doubling to a minute while the problem lasts. A job whose plan this instance
 * cannot read (made by a newer kafka-mv during a rolling upgrade) is left to the instances that can.
 *
 * <p>Written by {@link JobRunner}'s loop, read by SHOW JOBS from any thread.
 */
final class LocalStartProblems {

    static final Duration FIRST = Duration.ofSeconds(1);
    static final Duration MOST = Duration.ofMinutes(1);
    /**
     * How long a job must run here after its last failure before the next one starts again at the first delay: a
     * job that fails on the same record soon after each start (Kafka Streams runs before it meets it) must not be
     * restarted every second.
     */
    static final Duration STABLE = Duration.ofMinutes(5);

    private record Problem(String reason, int attempts, long retryAt, boolean leftToOthers, long failedAt,
                           boolean runningAgain) {
    }

    private final Map<Long, Problem> problems = new ConcurrentHashMap<>();

    /** Whether this instance may try to start the job now. */
    boolean due(long jobId, long nowNanos) {
        Problem problem = problems.get(jobId);
        return problem == null || !problem.leftToOthers() && nowNanos - problem.retryAt() >= 0;
    }

    /** Records a failed start (or a failure of the running job) and returns how long to wait before the next try. */
    Duration failed(long jobId, Throwable failure, long nowNanos) {
        Problem last = problems.get(jobId);
        int attempts = last == null || last.leftToOthers() ? 1 : last.attempts() + 1;
        Duration delay = FIRST.multipliedBy(1L << Math.min(attempts - 1, 16));
        if (delay.compareTo(MOST) > 0) {
            delay = MOST;
        }
        problems.put(jobId, new Problem(reason(failure), attempts, nowNanos + delay.toNanos(), false, nowNanos, false));
        return delay;
    }

    /** Leaves a job this instance cannot run to the others; true the first time, so that it is logged once. */
    boolean leaveToOthers(long jobId, String reason) {
        return problems.put(jobId, new Problem(reason, 0, 0, true, 0, false)) == null;
    }

    /**
     * The job runs here: it is no longer shown as not running, and once it has run {@link #STABLE} since its last
     * failure, the next problem starts again at the first delay.
     */
    void running(long jobId, long nowNanos) {
        problems.computeIfPresent(jobId, (id, problem) -> problem.leftToOthers() ? problem
            : nowNanos - problem.failedAt() >= STABLE.toNanos() ? null
            : new Problem(problem.reason(), problem.attempts(), problem.retryAt(), false, problem.failedAt(), true));
    }

    /** Forgets what kept the job from running here: the reason is gone. */
    void forget(long jobId) {
        problems.remove(jobId);
    }

    /** The jobs this instance leaves to the others ({@link #leaveToOthers}). */
    Set<Long> leftToOthers() {
        return problems.entrySet().stream().filter(entry -> entry.getValue().leftToOthers()).map(Map.Entry::getKey)
            .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /** Whether this instance leaves the job to the others ({@link #leaveToOthers}). */
    boolean leftToOthers(long jobId) {
        Problem problem = problems.get(jobId);
        return problem != null && problem.leftToOthers();
    }

    /** Forgets the jobs that are gone. */
    void retainOnly(Set<Long> jobIds) {
        problems.keySet().retainAll(jobIds);
    }

    /** What keeps the job from running on this instance, as SHOW JOBS says it. */
    Optional<String> describe(long jobId, long nowNanos) {
        Problem problem = problems.get(jobId);
        if (problem == null || problem.runningAgain()) {
            return Optional.empty();
        }
        if (problem.leftToOthers()) {
            return Optional.of("this instance cannot run it (" + problem.reason() + ")");
        }
        long seconds = Math.max(0, Duration.ofNanos(problem.retryAt() - nowNanos).toSeconds());
        return Optional.of("not running on this instance, attempt " + problem.attempts() + ", next in " + seconds
            + " s: " + problem.reason());
    }

    /** The failure and its innermost cause, which usually says what is wrong (a path, a broker, a lock). */
    private static String reason(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String outer = String.valueOf(failure.getMessage());
        return root == failure || outer.contains(String.valueOf(root.getMessage())) ? outer
            : outer + ": " + root.getMessage();
    }
}
