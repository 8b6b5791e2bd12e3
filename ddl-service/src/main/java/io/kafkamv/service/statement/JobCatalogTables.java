package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.function.LongToIntFunction;
import java.util.function.Supplier;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.parser.SqlObjectKind;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.service.jobs.JobRates;
import io.kafkamv.service.query.QueryEngine;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * Schema {@code kafka_mv}: the jobs of the whole cluster as tables any query can read, filter and join, as
 * RisingWave's {@code rw_ddl_progress} and Materialize's hydration status are. {@code kafka_mv.jobs} has a row per job
 * (being created, created or failed; a cancelled job is gone), {@code kafka_mv.job_partitions} a row per input
 * partition of each job with its offsets. Rows are read from the job store when the query runs.
 */
public final class JobCatalogTables {

    private final JobStore store;
    private final JobRates rates;
    private final LongPredicate hydrated;
    private final LongToIntFunction parallelism;
    private final Function<Collection<String>, Map<String, Long>> endOffsets;

    /**
     * @param hydrated   whether a created job's local state is whole on every instance ({@code JobRunner#hydrated})
     * @param parallelism the stream threads each instance runs a job with ({@code JobRunner#parallelism})
     * @param endOffsets the end offset of every partition of these topics now, by {@code topic:partition}
     */
    public JobCatalogTables(JobStore store, JobRates rates, LongPredicate hydrated,
                            LongToIntFunction parallelism,
                            Function<Collection<String>, Map<String, Long>> endOffsets) {
        this.store = store;
        this.rates = rates;
        this.hydrated = hydrated;
        this.parallelism = parallelism;
        this.endOffsets = endOffsets;
    }

    public void addTo(SchemaPlus root) {
        SchemaPlus schema = root.add("kafka_mv", new AbstractSchema());
        add(schema, "jobs", this::jobs, bigint("id"), text("name"), text("kind"), text("statement"),
            text("create_type"), text("state"), Column.of("progress", SqlType.DOUBLE), bigint("records_done"),
            bigint("records_total"), bigint("records_per_second"), Column.of("eta_seconds", SqlType.DOUBLE),
            Column.of("started_at", SqlType.TIMESTAMPTZ), bigint("backfill_rate_limit"), text("failure"),
            text("waiting_for"), Column.of("parallelism", SqlType.INTEGER), Column.of("hydrated", SqlType.BOOLEAN));
        add(schema, "job_partitions", this::partitions, bigint("job_id"), text("topic"),
            Column.of("partition", SqlType.INTEGER), bigint("start_offset"), bigint("committed_offset"),
            bigint("target_offset"), text("phase"), bigint("end_offset"));
    }

    private List<Job> shownJobs() {
        return store.jobs().stream()
            .filter(job -> job.status() != JobStatus.CANCELLING)
            .sorted(Comparator.comparingLong(Job::id))
            .toList();
    }

    private List<Object[]> jobs() {
        List<Object[]> rows = new ArrayList<>();
        for (Job job : shownJobs()) {
            Optional<JobRates.Rate> rate = job.status() == JobStatus.CREATING ? rates.of(job) : Optional.empty();
            long done = job.recordsDone();
            rows.add(new Object[] {job.id(), job.objectName(), kind(job), job.statement(),
                job.background() ? "background" : "foreground", JobState.of(job, store).label(),
                job.shownProgress() * 100, done, done + job.recordsRemaining(),
                rate.map(r -> Math.round(r.recordsPerSecond())).orElse(null),
                rate.flatMap(JobRates.Rate::eta).map(eta -> eta.toMillis() / 1000.0).orElse(null),
                job.createdAt().toEpochMilli(), job.rateLimit() < 0 ? null : job.rateLimit(), job.failure(),
                waitingFor(job),
                parallelism.applyAsInt(job.id()),
                job.status() == JobStatus.CREATED && hydrated.test(job.id())});
        }
        return rows;
    }

    private List<Object[]> partitions() {
        List<Object[]> rows = new ArrayList<>();
        List<Job> jobs = shownJobs();
        Map<String, Long> ends = ends(jobs);
        for (Job job : jobs) {
            job.targetOffsets().keySet().stream().sorted().forEach(partition -> {
                long start = job.startOffsets().getOrDefault(partition, 0L);
                long target = job.targetOffsets().get(partition);
                long committed = job.backfillOffsets().getOrDefault(partition, start);
                int colon = partition.lastIndexOf(':');
                rows.add(new Object[] {job.id(), partition.substring(0, colon),
                    Integer.parseInt(partition.substring(colon + 1)), start, committed, target,
                    job.status() == JobStatus.CREATED || committed >= target ? "live" : "backfill",
                    ends.get(partition)});
            });
        }
        return rows;
    }

    /** The views a waiting job still waits for; null for any other job (its waitsFor is empty once it is released). */
    private String waitingFor(Job job) {
        List<String> awaited = store.awaitedBy(job);
        return awaited.isEmpty() ? null : String.join(", ", awaited);
    }

    /** Where each input partition of these jobs ends now; none for a topic that cannot be read (deleted meanwhile). */
    private Map<String, Long> ends(List<Job> jobs) {
        Set<String> topics = new TreeSet<>();
        jobs.forEach(job -> job.targetOffsets().keySet()
            .forEach(partition -> topics.add(partition.substring(0, partition.lastIndexOf(':')))));
        if (topics.isEmpty()) {
            return Map.of();
        }
        try {
            return endOffsets.apply(topics);
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    private String kind(Job job) {
        return store.object(job.objectName()).filter(entry -> entry.jobId() == job.id()).map(CatalogEntry::kind)
            .map(kind -> SqlObjectKind.valueOf(kind.name()).sql().toLowerCase(Locale.ROOT)).orElse(null);
    }

    private static void add(SchemaPlus schema, String name, Supplier<List<Object[]>> rows, Column... columns) {
        schema.add(name, QueryEngine.table(new Relation(name, RowSchema.of(columns), List.of(), "catalog"), rows));
    }

    private static Column text(String name) {
        return Column.of(name, SqlType.VARCHAR);
    }

    private static Column bigint(String name) {
        return Column.of(name, SqlType.BIGINT);
    }
}
