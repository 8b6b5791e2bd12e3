package io.kafkamv.service.rest;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.javalin.http.Context;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.jobs.JobRates;
import io.kafkamv.service.statement.StatementExecutor;

/** {@code /v1/jobs}: the same jobs SHOW JOBS lists, with their offsets and status. */
final class JobsApi {

    private final JobStore store;
    private final StatementExecutor executor;
    private final JobRates rates;

    JobsApi(JobStore store, StatementExecutor executor, JobRates rates) {
        this.store = store;
        this.executor = executor;
        this.rates = rates;
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

    /** Waits until the job has created its object, or {@code timeout} (e.g. {@code 30s}, default 60s) passes. */
    void await(Context ctx) throws InterruptedException {
        Optional<Job> job = job(ctx);
        if (job.isEmpty()) {
            return;
        }
        Duration timeout = timeout(ctx.queryParam("timeout"));
        long deadline = System.nanoTime() + timeout.toNanos();
        long id = job.get().id();
        while (true) {
            Optional<Job> current = store.job(id);
            if (current.isEmpty()) {
                Problem.respond(ctx, Problem.of(410, "Gone", "job " + id + " was cancelled"));
                return;
            }
            JobStatus status = current.get().status();
            if (status != JobStatus.CREATING) {
                ctx.status(status == JobStatus.CREATED ? 200 : 409).json(json(current.get()));
                return;
            }
            if (System.nanoTime() > deadline) {
                ctx.status(408).json(json(current.get()));
                return;
            }
            Thread.sleep(100);
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

    static Duration timeout(String text) {
        if (text == null || text.isBlank()) {
            return Duration.ofSeconds(60);
        }
        String trimmed = text.trim().toLowerCase(java.util.Locale.ROOT);
        if (trimmed.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(trimmed.substring(0, trimmed.length() - 2)));
        }
        if (trimmed.endsWith("s")) {
            return Duration.ofSeconds(Long.parseLong(trimmed.substring(0, trimmed.length() - 1)));
        }
        return Duration.ofSeconds(Long.parseLong(trimmed));
    }

    private Map<String, Object> json(Job job) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", job.id());
        json.put("object", job.objectName());
        json.put("statement", job.statement());
        json.put("status", job.status().name());
        json.put("background", job.background());
        json.put("progress", job.progress());
        json.put("percent", String.format(java.util.Locale.ROOT, "%.2f%%", job.progress() * 100));
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
