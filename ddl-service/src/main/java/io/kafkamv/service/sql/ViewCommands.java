package io.kafkamv.service.sql;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kafkamv.compiler.CompileException;
import io.kafkamv.compiler.CompiledView;
import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlObjectKind;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.jobstore.ObjectStatus;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.jobs.Offsets;

/**
 * CREATE and DROP MATERIALIZED VIEW. A create is accepted by writing its job, with the backfill's
 * target offsets, before anything runs; the job runner does the rest. In the background the
 * statement returns at once; in the foreground it waits, sending progress as notices.
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
        String name = statement.name().getSimple();
        StatementResult done = new StatementResult.Command(SqlObjectKind.MATERIALIZED_VIEW.createTag());
        Optional<CatalogEntry> existing = context.catalog().entry(name);
        if (existing.isPresent()) {
            if (statement.ifNotExists()) {
                notices.notice("relation \"" + name + "\" already exists, skipping");
                return done;
            }
            CatalogEntry entry = existing.get();
            String state = entry.visible() ? "" : " (being created, job " + entry.jobId() + ")";
            throw SqlError.of(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists" + state);
        }
        long jobId = context.store().allocateJobId();
        CompiledView view;
        try {
            view = new SqlCompiler(context.catalog(), context.topicPartitions()).compileView(statement, text, jobId);
        } catch (CompileException e) {
            throw explainInvisible(SqlErrors.from(e));
        }
        List<String> sources = view.plan().sourceTopics();
        Map<String, Long> start = Offsets.start(context.admin(), sources);
        Map<String, Long> target = Offsets.end(context.admin(), sources);
        tables.createTopic(view.plan().outputTopic(), context.topicPartitions(), true);
        boolean background = session.backgroundDdl();
        long rateLimit = session.variable("backfill_rate_limit").map(Long::parseLong).orElse(-1L);
        Job job = new Job(jobId, name, view.statement(), PlanJson.toTree(view.plan()), background,
            JobStatus.CREATING, null, start, target, Map.of(), 0.0, context.instanceId(), rateLimit,
            Instant.now(), Instant.now());
        // The job goes first: from here on it completes even if this instance dies.
        context.store().put(job);
        context.store().put(CatalogService.entry(view.relation(), ObjectKind.MATERIALIZED_VIEW, ObjectStatus.CREATING,
            view.statement(), jobId));
        if (!background) {
            jobs.awaitCreated(session, jobId, notices);
        }
        return done;
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

    /** Drops a view: its entry goes at once, so the name is free; the runner cleans up its job. */
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
        context.store().removeObject(entry.name());
        context.store().job(entry.jobId()).ifPresent(job ->
            context.store().put(job.withStatus(JobStatus.CANCELLING, "dropped")));
        return new StatementResult.Command(SqlObjectKind.MATERIALIZED_VIEW.dropTag());
    }

    /** Objects whose jobs read this object's topic. */
    List<CatalogEntry> dependents(CatalogEntry entry) {
        if (entry.definition() == null || !entry.definition().has("topic")) {
            return List.of();
        }
        String topic = CatalogService.relation(entry).topic();
        List<CatalogEntry> dependents = new ArrayList<>();
        for (CatalogEntry other : context.store().objects()) {
            if (other.jobId() != 0 && !other.name().equals(entry.name())) {
                context.store().job(other.jobId())
                    .filter(job -> job.targetOffsets().keySet().stream().anyMatch(p -> p.startsWith(topic + ":")))
                    .ifPresent(job -> dependents.add(other));
            }
        }
        return dependents;
    }

    static String describe(CatalogEntry entry) {
        return entry.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " " + entry.name();
    }
}
