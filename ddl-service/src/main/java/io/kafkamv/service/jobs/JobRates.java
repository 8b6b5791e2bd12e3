package io.kafkamv.service.jobs;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;

/**
 * How fast each backfill moves and when it should finish at that pace. The rate is measured between the
 * progress records of the job store, stamped by the instance that ran the backfill, so every instance
 * reports the same figures for a job wherever it runs. How long no progress has come is measured on this
 * instance's clock, from when each record arrived: another host's clock may be off by any amount.
 */
public final class JobRates {

    /** Long enough to smooth over commit-sized steps, short enough to follow a throttle or a pause. */
    static final Duration WINDOW = Duration.ofSeconds(10);
    /** Progress is recorded about every second; longer without a record means the backfill stands still. */
    private static final Duration STALL = Duration.ofSeconds(3);

    /** @param eta empty while the backfill does not move */
    public record Rate(double recordsPerSecond, Optional<Duration> eta) {
    }

    /** @param at the writer's stamp; @param arrived this instance's time when it was read */
    private record Sample(Instant at, long done, Instant arrived) {
    }

    private final Clock clock;
    private final Map<Long, Deque<Sample>> samples = new ConcurrentHashMap<>();

    JobRates(Clock clock) {
        this.clock = clock;
    }

    /** Rates of the jobs in {@code store}, kept up to date as it changes. */
    public static JobRates following(JobStore store) {
        JobRates rates = new JobRates(Clock.systemUTC());
        store.addListener(() -> rates.observe(store.jobs()));
        return rates;
    }

    void observe(Collection<Job> jobs) {
        Set<Long> creating = jobs.stream().filter(job -> job.status() == JobStatus.CREATING).map(Job::id)
            .collect(Collectors.toSet());
        samples.keySet().retainAll(creating);
        for (Job job : jobs) {
            if (!creating.contains(job.id())) {
                continue;
            }
            Deque<Sample> history = samples.computeIfAbsent(job.id(), id -> new ArrayDeque<>());
            synchronized (history) {
                if (history.isEmpty() || history.getLast().at().isBefore(job.updatedAt())) {
                    history.addLast(new Sample(job.updatedAt(), job.recordsDone(), clock.instant()));
                }
                while (history.size() > 2 && history.getFirst().at().isBefore(job.updatedAt().minus(WINDOW))) {
                    history.removeFirst();
                }
            }
        }
    }

    /** The job's backfill rate over the last few seconds; empty until progress has been recorded twice. */
    public Optional<Rate> of(Job job) {
        Deque<Sample> history = samples.get(job.id());
        if (job.status() != JobStatus.CREATING || history == null) {
            return Optional.empty();
        }
        Sample first;
        Sample last;
        synchronized (history) {
            if (history.size() < 2) {
                return Optional.empty();
            }
            first = history.getFirst();
            last = history.getLast();
        }
        Duration silence = Duration.between(last.arrived(), clock.instant());
        if (silence.compareTo(WINDOW) > 0) {
            return Optional.of(new Rate(0, Optional.empty()));
        }
        // No progress recorded for a while: the window runs on for as long, so a stalling backfill's rate falls.
        Instant end = silence.compareTo(STALL) > 0 ? last.at().plus(silence) : last.at();
        double seconds = Duration.between(first.at(), end).toMillis() / 1000.0;
        if (seconds <= 0) {
            return Optional.empty();
        }
        double perSecond = Math.max(0, (last.done() - first.done()) / seconds);
        Optional<Duration> eta = perSecond > 0
            ? Optional.of(Duration.ofMillis((long) (job.recordsRemaining() / perSecond * 1000)))
            : Optional.empty();
        return Optional.of(new Rate(perSecond, eta));
    }
}
