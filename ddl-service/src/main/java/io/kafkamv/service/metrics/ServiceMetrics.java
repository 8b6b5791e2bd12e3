package io.kafkamv.service.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The service's metrics in Prometheus form: statements by kind and errors by SQLSTATE, jobs and
 * their progress, the JVM, and (bound by the job runner) each job's Kafka Streams client metrics.
 */
public final class ServiceMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();
    private final MultiGauge jobProgress;
    private final MultiGauge jobRemaining;
    private final JobStore store;

    public ServiceMetrics(JobStore store) {
        this.store = store;
        new JvmMemoryMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        for (JobStatus status : JobStatus.values()) {
            Gauge.builder("kafkamv.jobs", store, s -> s.jobs().stream().filter(job -> job.status() == status).count())
                .description("Jobs in the cluster by status")
                .tag("status", status.name().toLowerCase(Locale.ROOT))
                .register(registry);
        }
        jobProgress = MultiGauge.builder("kafkamv.job.progress")
            .description("Fraction of a job's backfill done, 0 to 1").register(registry);
        jobRemaining = MultiGauge.builder("kafkamv.job.records.remaining")
            .description("Source records a job still has to backfill").register(registry);
    }

    /** The PostgreSQL endpoint's open connections and sessions, read when scraped. */
    public void bindPgWire(java.util.function.IntSupplier connections, java.util.function.IntSupplier sessions) {
        Gauge.builder("kafkamv.pgwire.connections", connections::getAsInt)
            .description("Client connections open on the PostgreSQL endpoint").register(registry);
        Gauge.builder("kafkamv.pgwire.sessions", sessions::getAsInt)
            .description("Sessions open on the PostgreSQL endpoint (past startup and authentication)").register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Counts and times one statement; {@code sqlState} is null when it succeeded. */
    public void statement(String kind, Duration duration, String sqlState) {
        Timer.builder("kafkamv.statements").description("Statements run, by kind")
            .tag("kind", kind).tag("outcome", sqlState == null ? "ok" : "error")
            .publishPercentileHistogram()
            .register(registry).record(duration);
        if (sqlState != null) {
            Counter.builder("kafkamv.statement.errors").description("Statement errors by SQLSTATE")
                .tag("sqlstate", sqlState).register(registry).increment();
        }
    }

    /** The Prometheus text, with per-job figures read from the job store at this moment. */
    public String scrape() {
        List<Job> jobs = store.jobs().stream().filter(job -> job.status() != JobStatus.CANCELLING).toList();
        jobProgress.register(jobs.stream().map(job -> MultiGauge.Row.of(tags(job), job.progress())).toList(), true);
        jobRemaining.register(jobs.stream().map(job -> MultiGauge.Row.of(tags(job), remaining(job))).toList(), true);
        return registry.scrape();
    }

    private static Tags tags(Job job) {
        return Tags.of("job_id", String.valueOf(job.id()), "object", job.objectName());
    }

    private static long remaining(Job job) {
        long remaining = 0;
        for (var target : job.targetOffsets().entrySet()) {
            long consumed = job.backfillOffsets().getOrDefault(target.getKey(),
                job.startOffsets().getOrDefault(target.getKey(), 0L));
            remaining += Math.max(0, target.getValue() - consumed);
        }
        return job.status() == JobStatus.CREATED ? 0 : remaining;
    }

    @Override
    public void close() {
        gcMetrics.close();
        registry.close();
    }
}
