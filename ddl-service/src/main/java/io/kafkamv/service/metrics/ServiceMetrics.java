package io.kafkamv.service.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.service.jobs.JobRates;
import io.kafkamv.service.jobs.LocalViewStats;
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
 * The service's metrics in Prometheus form: statements by kind and errors by SQLSTATE, jobs with their
 * progress, rate and ETA (the same figures on every instance), each object's share on this instance
 * (rows, lag, rate, dead letters), the JVM, and (bound by the job runner) each job's Kafka Streams
 * client metrics.
 */
public final class ServiceMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();
    private final JobStore store;
    private final JobRates rates;
    private final List<Family<Job>> jobFamilies;
    private final List<Family<LocalViewStats>> viewFamilies;
    private Supplier<List<LocalViewStats>> localViews = List::of;

    /** A gauge family with one series per job or object, whose rows are set anew at every scrape. */
    private record Family<T>(MultiGauge gauge, Function<T, Tags> tags, ToDoubleFunction<T> value, Predicate<T> present) {
        void refresh(List<T> items) {
            gauge.register(items.stream().filter(present)
                .map(item -> MultiGauge.Row.of(tags.apply(item), value.applyAsDouble(item))).toList(), true);
        }
    }

    public ServiceMetrics(JobStore store, JobRates rates) {
        this.store = store;
        this.rates = rates;
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
        jobFamilies = List.of(
            jobFamily("kafkamv.job.progress", "Fraction of a job's backfill done, 0 to 1", Job::progress),
            jobFamily("kafkamv.job.records.backfilled", "Source records a job has backfilled", Job::recordsDone),
            jobFamily("kafkamv.job.records.remaining", "Source records a job still has to backfill",
                Job::recordsRemaining),
            new Family<>(gauge("kafkamv.job.records.per.second", "Records a job backfills per second, over the last 10 s"),
                ServiceMetrics::tags, job -> rates.of(job).map(JobRates.Rate::recordsPerSecond).orElse(0.0),
                job -> rates.of(job).isPresent()),
            new Family<>(gauge("kafkamv.job.eta.seconds", "Estimated seconds until a job's backfill is done, at its current rate"),
                ServiceMetrics::tags, job -> rates.of(job).flatMap(JobRates.Rate::eta).orElseThrow().toMillis() / 1000.0,
                job -> rates.of(job).flatMap(JobRates.Rate::eta).isPresent()),
            new Family<>(gauge("kafkamv.job.state", "1 for each job, tagged with its state"),
                job -> tags(job).and("state", job.status().name().toLowerCase(Locale.ROOT)), job -> 1, job -> true));
        viewFamilies = List.of(
            viewFamily("kafkamv.view.rows", "Rows of an object held on this instance, counted at most every 30 s",
                LocalViewStats::rows),
            viewFamily("kafkamv.view.lag.records", "Source records an object's tasks on this instance have not processed",
                LocalViewStats::lag),
            viewFamily("kafkamv.view.records.per.second", "Records an object's tasks on this instance process per second",
                LocalViewStats::recordsPerSecond),
            viewFamily("kafkamv.view.dead.letters", "Source records an object's tasks on this instance could not read",
                LocalViewStats::deadLetters));
    }

    /** Views, sinks and indexes whose jobs run on this instance, read when scraped. */
    public void bindViews(Supplier<List<LocalViewStats>> views) {
        this.localViews = views;
    }

    private Family<Job> jobFamily(String name, String description, ToDoubleFunction<Job> value) {
        return new Family<>(gauge(name, description), ServiceMetrics::tags, value, job -> true);
    }

    private Family<LocalViewStats> viewFamily(String name, String description, ToDoubleFunction<LocalViewStats> value) {
        return new Family<>(gauge(name, description),
            view -> Tags.of("job_id", String.valueOf(view.jobId()), "object", view.object()), value, view -> true);
    }

    private MultiGauge gauge(String name, String description) {
        return MultiGauge.builder(name).description(description).register(registry);
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
        jobFamilies.forEach(family -> family.refresh(jobs));
        List<LocalViewStats> views = localViews.get();
        viewFamilies.forEach(family -> family.refresh(views));
        return registry.scrape();
    }

    private static Tags tags(Job job) {
        return Tags.of("job_id", String.valueOf(job.id()), "object", job.objectName());
    }

    @Override
    public void close() {
        gcMetrics.close();
        registry.close();
    }
}
