package io.kafkamv.service.rest;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import java.util.function.LongToIntFunction;

import io.javalin.http.Context;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.jobs.JobRates;
import io.kafkamv.service.statement.StatementExecutor;

/** {@code /v1/jobs}: the same jobs SHOW JOBS lists, with their offsets and status. */
final class JobsApi {

    static final Duration MAX_WAIT = Duration.ofMinutes(10);
    /** Polls every waiting request's job; one thread for all of them. */
    private static final ScheduledExecutorService WAITS = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "rest-job-waits");
        thread.setDaemon(true);
        return thread;
    });

    private final JobStore store;
    private final StatementExecutor executor;
    private final JobRates rates;
    private final LongPredicate hydrated;
    private final LongToIntFunction parallelism;

    /**
     * @param hydrated    whether a created job's state is whole on every instance ({@code JobRunner#hydrated})
     * @param parallelism the stream threads each instance runs a job with ({@code JobRunner#parallelism})
     */
    JobsApi(JobStore store, StatementExecutor executor, JobRates rates, LongPredicate hydrated,
            LongToIntFunction parallelism) {
        this.store = store;
        this.executor = executor;
        this.rates = rates;
        this.hydrated = hydrated;
        this.parallelism = parallelism;
    }

    void list(Context ctx) {
        ctx.json(Map.of("jobs", store.jobs().stream()
            .filter(job -> job.status() != JobStatus.CANCELLING)
            .sorted(Comparator.comparingLong(Job::id))
            .map(this::json)
            .toList()));
    }

    void get(Context ctx) {
        job(ctx).ifPresent(job -> ctx.json(json(job)));
    }

    /** Cancels as CANCEL JOBS does, so both doors cancel the same way. */
    void cancel(Context ctx) {
        if (job(ctx).isEmpty()) {
            return;
        }
        try {
            long id = Long.parseLong(ctx.pathParam("id"));
            executor.cancelJobs(List.of(id));
            ctx.status(202).json(Map.of("id", id, "status", "CANCELLING"));
        } catch (SqlError error) {
            Problem.respond(ctx, Problem.of(error, null));
        }
    }

    /** PAUSE JOB through REST: the job as it is then, {@code "paused": true}. */
    void pause(Context ctx) {
        pauseOrResume(ctx, false);
    }

    void resume(Context ctx) {
        pauseOrResume(ctx, true);
    }

    private void pauseOrResume(Context ctx, boolean resume) {
        Optional<Job> job = job(ctx);
        if (job.isEmpty()) {
            return;
        }
        try {
            executor.pauseJobs(List.of(job.get().id()), resume);
            ctx.json(json(store.job(job.get().id()).orElse(job.get())));
        } catch (SqlError error) {
            Problem.respond(ctx, Problem.of(error, null));
        }
    }

    /**
     * Waits until the job has created its object, or {@code timeout} (e.g. {@code 30s}, default 60s, at most
     * {@link #MAX_WAIT}) passes. The request holds no server thread meanwhile: many clients waiting at once must not
     * take every thread from the requests that would end their wait (a cross-instance read, a cancel).
     */
    void await(Context ctx) {
        Optional<Job> job = job(ctx);
        if (job.isEmpty()) {
            return;
        }
        Duration timeout;
        try {
            timeout = timeout(ctx.queryParam("timeout"));
        } catch (IllegalArgumentException e) {
            Problem.respond(ctx, Problem.of(400, "Bad request", e.getMessage()));
            return;
        }
        CompletableFuture<Void> answered = new CompletableFuture<>();
        ctx.future(() -> answered);
        poll(ctx, job.get().id(), System.nanoTime() + timeout.toNanos(), answered);
    }

    private void poll(Context ctx, long id, long deadline, CompletableFuture<Void> answered) {
        try {
            Optional<Job> current = store.job(id);
            if (current.isEmpty() || current.get().status() == JobStatus.CANCELLING) {
                String why = store.cancelled(id).map(reason -> ": " + reason).orElse("");
                Problem.respond(ctx, Problem.of(410, "Gone", "job " + id + " was cancelled" + why));
            } else if (!current.get().status().isBeingCreated()) {
                ctx.status(current.get().status() == JobStatus.CREATED ? 200 : 409).json(json(current.get()));
            } else if (System.nanoTime() > deadline) {
                ctx.status(408).json(json(current.get()));
            } else {
                WAITS.schedule(() -> poll(ctx, id, deadline, answered), 100, TimeUnit.MILLISECONDS);
                return;
            }
            answered.complete(null);
        } catch (RuntimeException e) {
            answered.completeExceptionally(e);
        }
    }

    private Optional<Job> job(Context ctx) {
        long id;
        try {
            id = Long.parseLong(ctx.pathParam("id"));
        } catch (NumberFormatException e) {
            Problem.respond(ctx, Problem.of(400, "Bad request", "a job id is a number, not " + ctx.pathParam("id")));
            return Optional.empty();
        }
        Optional<Job> job = store.job(id).filter(candidate -> candidate.status() != JobStatus.CANCELLING);
        if (job.isEmpty()) {
            Problem.respond(ctx, Problem.of(404, "Not found", "job " + id + " does not exist"));
        }
        return job;
    }

    /** The wait a client asks for: {@code 30s}, {@code 500ms} or seconds; 60 s when it does not say. */
    static Duration timeout(String text) {
        if (text == null || text.isBlank()) {
            return Duration.ofSeconds(60);
        }
        String trimmed = text.trim().toLowerCase(java.util.Locale.ROOT);
        Duration timeout;
        try {
            timeout = trimmed.endsWith("ms") ? Duration.ofMillis(Long.parseLong(trimmed.substring(0, trimmed.length() - 2)))
                : trimmed.endsWith("s") ? Duration.ofSeconds(Long.parseLong(trimmed.substring(0, trimmed.length() - 1)))
                : Duration.ofSeconds(Long.parseLong(trimmed));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("timeout is a number of seconds (30 or 30s) or milliseconds (500ms), not " + text);
        }
        if (timeout.isNegative() || timeout.compareTo(MAX_WAIT) > 0) {
            throw new IllegalArgumentException("timeout must be between 0 and " + MAX_WAIT.toMinutes()
                + " minutes; wait again for longer");
        }
        return timeout;
    }

    private Map<String, Object> json(Job job) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", job.id());
        json.put("object", job.objectName());
        json.put("statement", job.statement());
        json.put("status", job.status().name());
        json.put("background", job.background());
        json.put("progress", job.shownProgress());
        // A job that started over (its state could not be resumed) is a new generation, its progress shown as before.
        json.put("generation", job.generation());
        json.put("rebuilding", job.rebuilding());
        json.put("percent", String.format(java.util.Locale.ROOT, "%.2f%%", job.shownProgress() * 100));
        json.put("recordsBackfilled", job.recordsDone());
        json.put("recordsRemaining", job.recordsRemaining());
        rates.of(job).ifPresent(rate -> {
            json.put("recordsPerSecond", Math.round(rate.recordsPerSecond()));
            rate.eta().ifPresent(eta -> json.put("etaSeconds", eta.toMillis() / 1000.0));
        });
        json.put("partitions", partitions(job));
        if (job.failure() != null) {
            json.put("failure", job.failure());
        }
        json.put("backfillRateLimit", job.rateLimit());
        json.put("parallelism", parallelism.applyAsInt(job.id()));
        json.put("parallelismSet", store.parallelism(job.id()).isPresent());
        if (job.status() == JobStatus.CREATED) {
            json.put("hydrated", hydrated.test(job.id()));
        }
        json.put("paused", job.status().isBeingCreated() && store.paused(job.id()));
        json.put("queued", store.queued().contains(job.id()));
        List<String> awaited = store.awaitedBy(job);
        if (!awaited.isEmpty()) {
            json.put("waitingFor", awaited);
        }
        json.put("createdAt", job.createdAt().toString());
        json.put("updatedAt", job.updatedAt().toString());
        return json;
    }

    private static List<Map<String, Object>> partitions(Job job) {
        return job.targetOffsets().keySet().stream().sorted().map(partition -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("partition", partition);
            json.put("start", job.startOffsets().getOrDefault(partition, 0L));
            json.put("consumed", job.backfillOffsets().getOrDefault(partition, job.startOffsets().getOrDefault(partition, 0L)));
            json.put("target", job.targetOffsets().get(partition));
            return json;
        }).toList();
    }
}
