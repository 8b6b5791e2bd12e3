package io.kafkamv.service.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
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
    private final List<Family<JobSample>> jobFamilies;
    private final List<Family<LocalViewStats>> viewFamilies;
    private Supplier<List<LocalViewStats>> localViews = List::of;

    /** A gauge family with one series per job or object (none where it has no value), set anew at every scrape. */
    private record Family<T>(MultiGauge gauge, Function<T, Tags> tags, Function<T, OptionalDouble> value) {
        void refresh(List<T> items) {
            List<MultiGauge.Row<?>> rows = new java.util.ArrayList<>();
            for (T item : items) {
                value.apply(item).ifPresent(number -> rows.add(MultiGauge.Row.of(tags.apply(item), number)));
            }
            gauge.register(rows, true);
        }
    }

    /** A job and its rate, read once per scrape so that every family sees the same figures. */
    private record JobSample(Job job, Optional<JobRates.Rate> rate) {
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
            jobFamily("kafkamv.job.progress", "Fraction of a job's backfill done, 0 to 1",
                sample -> OptionalDouble.of(sample.job().shownProgress())),
            jobFamily("kafkamv.job.records.backfilled", "Source records a job has backfilled",
                sample -> OptionalDouble.of(sample.job().recordsDone())),
            jobFamily("kafkamv.job.records.remaining", "Source records a job still has to backfill",
                sample -> OptionalDouble.of(sample.job().recordsRemaining())),
            jobFamily("kafkamv.job.records.per.second", "Records a job backfills per second, over the last 10 s",
                sample -> sample.rate().map(rate -> OptionalDouble.of(rate.recordsPerSecond())).orElse(OptionalDouble.empty())),
            jobFamily("kafkamv.job.eta.seconds", "Estimated seconds until a job's backfill is done, at its current rate",
                sample -> sample.rate().flatMap(JobRates.Rate::eta)
                    .map(eta -> OptionalDouble.of(eta.toMillis() / 1000.0)).orElse(OptionalDouble.empty())),
            new Family<>(gauge("kafkamv.job.state", "1 for each job, tagged with its state"),
                sample -> tags(sample.job()).and("state", sample.job().status().name().toLowerCase(Locale.ROOT)),
                sample -> OptionalDouble.of(1)));
        viewFamilies = List.of(
            viewFamily("kafkamv.view.rows", "Rows of an object held on this instance, counted at most every 30 s",
                LocalViewStats::rows),
            viewFamily("kafkamv.view.lag.records", "Source records an object's tasks on this instance have not processed",
                LocalViewStats::lag),
            viewFamily("kafkamv.view.records.per.second", "Records an object's tasks on this instance process per second",
                LocalViewStats::recordsPerSecond),
            viewFamily("kafkamv.view.dead.letters", "Source records an object's tasks on this instance could not read",
                LocalViewStats::deadLetters),
            viewFamily("kafkamv.view.evaluation.errors",
                "Times an object's tasks on this instance could not compute a value for a row (overflow, division by "
                    + "zero) and made it null", LocalViewStats::evaluationErrors),
            viewFamily("kafkamv.view.stream.threads", "Stream threads an object's job runs with on this instance "
                + "(its parallelism)", LocalViewStats::streamThreads),
            viewFamily("kafkamv.view.held", "1 while a rate limit (its backfill's, or one of its sources') holds an "
                + "object's job back on this instance", view -> view.held() ? 1 : 0));
    }

    /** Views, sinks and indexes whose jobs run on this instance, read when scraped. */
    public void bindViews(Supplier<List<LocalViewStats>> views) {
        this.localViews = views;
    }

    private Family<JobSample> jobFamily(String name, String description, Function<JobSample, OptionalDouble> value) {
        return new Family<>(gauge(name, description), sample -> tags(sample.job()), value);
    }

    private Family<LocalViewStats> viewFamily(String name, String description, ToDoubleFunction<LocalViewStats> value) {
        return new Family<>(gauge(name, description),
            view -> Tags.of("job_id", String.valueOf(view.jobId()), "object", view.object()),
            view -> OptionalDouble.of(value.applyAsDouble(view)));
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
        List<JobSample> samples = jobs.stream().map(job -> new JobSample(job, rates.of(job))).toList();
        jobFamilies.forEach(family -> family.refresh(samples));
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
