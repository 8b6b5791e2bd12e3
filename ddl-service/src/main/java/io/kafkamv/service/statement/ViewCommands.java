package io.kafkamv.service.statement;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

import io.kafkamv.compiler.CompiledIndex;
import io.kafkamv.compiler.CompiledSink;
import io.kafkamv.compiler.CompiledView;
import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.parser.SqlCreateIndex;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlCreateSink;
import io.kafkamv.compiler.parser.SqlObjectKind;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.plan.SinkOutput;
import io.kafkamv.connectors.format.AvroSinkEncoders;
import io.kafkamv.connectors.jdbc.JdbcUpsertWriter;
import io.kafkamv.connectors.registry.SchemaRegistryException;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.secret.SecretReferences;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.jobstore.ObjectStatus;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlErrors;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.jobs.JdbcSinks;
import io.kafkamv.service.jobs.Offsets;
import io.kafkamv.service.result.Notices;
import io.kafkamv.service.result.StatementResult;

/**
 * CREATE and DROP of the objects a job builds: materialized views, sinks and indexes. A create is accepted
 * by writing its job, with the backfill's target offsets, before anything runs; the job runner does
 * the rest. In the background the statement returns at once; in the foreground it waits, sending
 * progress as notices.
 */
final class ViewCommands {

    private final ServiceContext context;
    private final JobCommands jobs;
    private final TableCommands tables;

    ViewCommands(ServiceContext context, JobCommands jobs, TableCommands tables) {
        this.context = context;
        this.jobs = jobs;
        this.tables = tables;
    }

    StatementResult create(Session session, SqlCreateMaterializedView statement, String text, Notices notices) {
        return createJob(session, statement.name().getSimple(), statement.ifNotExists(), SqlObjectKind.MATERIALIZED_VIEW,
            statement.options(), notices, jobId -> {
                // The job runner makes the view's output topic before it starts the job, on whichever
                // instance runs it: one admin round trip less before a background CREATE returns.
                CompiledView view = compiler().compileView(statement, text, jobId);
                return new Prepared(view.plan(), view.statement(), CatalogService.entry(view.relation(),
                    ObjectKind.MATERIALIZED_VIEW, ObjectStatus.CREATING, view.statement(), jobId));
            });
    }

    /**
     * CREATE SINK: a job like a view's, whose rows go to a Kafka topic (created if it does not exist,
     * compacted for an upsert sink, left in place when the sink is dropped) or a PostgreSQL table
     * (checked first).
     */
    StatementResult createSink(Session session, SqlCreateSink statement, String text, Notices notices) {
        String name = statement.name().getSimple();
        PlainSecrets.notice(statement.options(), notices);
        return createJob(session, name, statement.ifNotExists(), SqlObjectKind.SINK, statement.options(), notices, jobId -> {
            CompiledSink sink = compiler().compileSink(statement, text, jobId);
            SinkOutput output = sink.plan().sink();
            if (output.writesToDatabase()) {
                try {
                    JdbcUpsertWriter.check(JdbcSinks.target(sink.plan()));
                } catch (SecretReferences.UnreadableSecretException e) {
                    throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "JDBC sink " + name + ": " + e.getMessage(), 0,
                        "set it on every instance of kafka-mv, or give the value itself");
                } catch (SQLException e) {
                    throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "JDBC sink " + name + ": " + e.getMessage(), 0,
                        "create the table first, with the sink's columns and a primary key on "
                            + String.join(", ", output.keyColumns()));
                }
            }
            if ("avro".equals(output.format())) {
                registerAvroSchemas(name, sink.plan());
            }
            tables.ensureTopic(output.topic(), context.topicPartitions(), output.type() == SinkOutput.SinkType.UPSERT);
            return new Prepared(sink.plan(), sink.statement(), CatalogService.sinkEntry(name, output, sink.statement(), jobId));
        });
    }

    /** Registers an Avro sink's value and key schemas, as its job would on its first row, so that a refusal is an error now. */
    private static void registerAvroSchemas(String name, PhysicalPlan plan) {
        SinkOutput output = plan.sink();
        List<Column> columns = plan.schema().columns();
        try {
            AvroSinkEncoders.of(plan.view(), output.topic(), columns, output.messageKey(columns), output.formatOptions())
                .register();
        } catch (SchemaRegistryException e) {
            throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "Avro sink " + name + ": the Schema Registry did not "
                + "take its schema: " + e.getMessage(), 0, "check schema.registry, and that the sink's columns are "
                + "compatible with what subject " + output.topic() + "-value already holds");
        }
    }

    /** CREATE INDEX: a job that keeps a relation's rows by some of their columns, for lookups by them. */
    StatementResult createIndex(Session session, SqlCreateIndex statement, String text, Notices notices) {
        String name = statement.name().getSimple();
        return createJob(session, name, statement.ifNotExists(), SqlObjectKind.INDEX, statement.options(), notices,
            jobId -> {
            CompiledIndex index = compiler().compileIndex(statement, text, jobId);
            List<String> columns = index.plan().index().columns().stream()
                .map(column -> index.plan().schema().columns().get(column).name()).toList();
            return new Prepared(index.plan(), index.statement(),
                CatalogService.indexEntry(name, index.on(), columns, index.statement(), jobId));
        });
    }

    /** What a create makes ready for its job: the plan, the statement as shown, and the catalog entry. */
    private record Prepared(PhysicalPlan plan, String statement, CatalogEntry entry) {
    }

    /**
     * The steps every create of a job's object takes: the name must be free, the job gets an id,
     * the statement is compiled (and what the job writes to made ready) with that id, and the job is
     * started.
     */
    private StatementResult createJob(Session session, String name, boolean ifNotExists, SqlObjectKind kind,
                                      Map<String, String> options, Notices notices, LongFunction<Prepared> prepare) {
        JobOptions jobOptions = JobOptions.of(kind, options);
        StatementResult done = new StatementResult.Command(kind.createTag());
        if (alreadyExists(name, ifNotExists, notices)) {
            return done;
        }
        long jobId = context.store().allocateJobId();
        Prepared prepared;
        try {
            prepared = prepare.apply(jobId);
        } catch (CompileException e) {
            throw explainInvisible(SqlErrors.from(e));
        }
        start(session, jobId, prepared.plan(), prepared.statement(), prepared.entry(), jobOptions, notices);
        return done;
    }

    /** A new job may read views still being created: it then waits for them ({@link #awaited}). */
    private SqlCompiler compiler() {
        return new SqlCompiler(context.catalog().includingCreating(), context.topicPartitions());
    }

    /** Whether the name is taken; with IF NOT EXISTS that is a notice, otherwise an error saying by what. */
    private boolean alreadyExists(String name, boolean ifNotExists, Notices notices) {
        Optional<CatalogEntry> existing = context.catalog().entry(name);
        if (existing.isEmpty()) {
            return false;
        }
        if (ifNotExists) {
            notices.notice("relation \"" + name + "\" already exists, skipping");
            return true;
        }
        CatalogEntry entry = existing.get();
        String state = entry.visible() ? "" : " (being created, job " + entry.jobId() + ")";
        throw SqlError.of(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists" + state);
    }

    /**
     * Accepts a job: the job record goes first, with its backfill's target offsets; from then on it
     * completes even if this instance dies. In the foreground, waits for it with progress notices.
     */
    private void start(Session session, long jobId, PhysicalPlan plan, String statement, CatalogEntry entry,
                       JobOptions options, Notices notices) {
        boolean background = session.backgroundDdl();
        long rateLimit = options.backfillRateLimit().orElseGet(() ->
            session.variable(JobOptions.BACKFILL_RATE_LIMIT).map(Long::parseLong).orElse(-1L));
        List<Long> awaited = awaited(plan);
        // A job over views still being created takes its offsets when they are created (the job runner does).
        Offsets.Range range = awaited.isEmpty() ? Offsets.ofNewJob(context.admin(), plan)
            : new Offsets.Range(Map.of(), Map.of());
        Job job = new Job(jobId, entry.name(), statement, PlanJson.toTree(plan), background,
            JobStatus.CREATING, null, range.start(), range.end(), Map.of(), 0.0, context.instanceId(), rateLimit,
            Instant.now(), Instant.now());
        if (!awaited.isEmpty()) {
            job = job.waitingFor(awaited);
        }
        // Before the job, so that it starts with its threads rather than gets them a moment later.
        options.parallelism().ifPresent(threads -> context.store().setParallelism(jobId, threads));
        if (!context.store().acceptJob(job, entry)) {
            context.store().cancelCreate(job, "another create of " + entry.name() + " came first");
            alreadyExists(entry.name(), false, notices);
            throw SqlError.of(SqlState.DUPLICATE_TABLE, "relation \"" + entry.name() + "\" already exists");
        }
        if (!background) {
            jobs.awaitCreated(session, jobId, notices);
        }
    }

    /** The jobs of the views still being created that the plan reads: a job over them waits for them. */
    private List<Long> awaited(PhysicalPlan plan) {
        List<String> topics = new ArrayList<>(plan.sourceTopics());
        topics.addAll(plan.lookupTopics());
        return context.store().objects().stream()
            .filter(entry -> !entry.visible() && entry.kind() == ObjectKind.MATERIALIZED_VIEW)
            .filter(entry -> topics.contains(CatalogService.relation(entry).topic()))
            .map(CatalogEntry::jobId)
            .sorted()
            .toList();
    }

    /** A view that exists but is still being created is not "missing": say so, and how far it is. */
    SqlError explainInvisible(SqlError error) {
        if (error.state() != SqlState.UNDEFINED_TABLE) {
            return error;
        }
        String message = error.getMessage();
        int open = message.indexOf('"');
        int close = message.indexOf('"', open + 1);
        if (open < 0 || close < 0) {
            return error;
        }
        String name = message.substring(open + 1, close);
        return context.catalog().entry(name)
            .filter(entry -> !entry.visible())
            .map(entry -> {
                double progress = context.store().job(entry.jobId()).map(Job::progress).orElse(0.0);
                return SqlError.at(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "materialized view \"" + name + "\" is still being created (job " + entry.jobId() + ", "
                        + JobCommands.percent(progress) + " done)",
                    error.position(), "WAIT MATERIALIZED VIEW " + name + " returns once it is created");
            })
            .orElse(error);
    }

    /**
     * Drops a view, sink or index, also one being created: its entry goes at once, so the name is free; the runner
     * cleans up its job. What reads it (or waits for it) goes too with CASCADE, and is named without.
     */
    StatementResult drop(CatalogEntry entry, boolean cascade) {
        List<CatalogEntry> dependents = dependents(entry);
        if (!dependents.isEmpty() && !cascade) {
            throw SqlError.at(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                "cannot drop " + describe(entry) + " because other objects depend on it", 0,
                "use DROP ... CASCADE to drop the dependent objects too: "
                    + String.join(", ", dependents.stream().map(CatalogEntry::name).toList()));
        }
        for (CatalogEntry dependent : dependents) {
            drop(dependent, true);
        }
        if (entry.kind() == ObjectKind.TABLE || entry.kind() == ObjectKind.SOURCE) {
            return tables.drop(entry);
        }
        if (context.store().job(entry.jobId()).isPresent()) {
            context.store().cancelAndFree(entry.jobId(), entry.name(),
                entry.visible() ? "dropped" : "dropped while being created");
        } else {
            context.store().removeObject(entry.name());
        }
        return new StatementResult.Command(SqlObjectKind.valueOf(entry.kind().name()).dropTag());
    }

    /** Objects whose jobs read this object's topic, or wait to. */
    List<CatalogEntry> dependents(CatalogEntry entry) {
        if (entry.definition() == null || !entry.definition().has("topic")) {
            return List.of();
        }
        String topic = CatalogService.relation(entry).topic();
        List<CatalogEntry> dependents = new ArrayList<>();
        for (CatalogEntry other : context.store().objects()) {
            if (other.jobId() != 0 && !other.name().equals(entry.name())) {
                context.store().job(other.jobId())
                    .filter(job -> reads(job, topic))
                    .ifPresent(job -> dependents.add(other));
            }
        }
        return dependents;
    }

    /**
     * Whether the job reads the topic: by its offsets, or by its plan while it waits and has none yet; a table
     * it looks up has no offsets in the job, only in the plan.
     */
    private static boolean reads(Job job, String topic) {
        PhysicalPlan plan;
        try {
            plan = PlanJson.fromTree(job.plan());
        } catch (RuntimeException newerPlan) {
            // A plan of a newer kafka-mv (a rolling upgrade): judged by its offsets alone, as before lookups.
            plan = null;
        }
        if (plan != null && plan.lookupTopics().contains(topic)) {
            return true;
        }
        if (job.status() == JobStatus.WAITING) {
            return plan != null && plan.sourceTopics().contains(topic);
        }
        return job.targetOffsets().keySet().stream().anyMatch(partition -> partition.startsWith(topic + ":"));
    }

    static String describe(CatalogEntry entry) {
        return entry.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " " + entry.name();
    }
}
