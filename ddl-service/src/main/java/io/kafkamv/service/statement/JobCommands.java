package io.kafkamv.service.statement;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import io.kafkamv.compiler.parser.SqlAlterObject;
import io.kafkamv.compiler.parser.SqlObjectKind;
import io.kafkamv.compiler.parser.SqlWait;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.StatementJob;
import io.kafkamv.jobstore.StatementProgress;
import io.kafkamv.jobstore.StatementStatus;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.Notices;
import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.jobs.JobRunner;
import io.kafkamv.service.jobs.Offsets;
import io.kafkamv.service.result.StatementResult;
import io.kafkamv.service.tables.OpenTransactions;
import org.apache.calcite.runtime.SqlFunctions;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;

/** SHOW JOBS, CANCEL JOBS, WAIT and FLUSH: watching and steering the jobs (and background statements) of the whole cluster. */
final class JobCommands {

    private static final Duration FLUSH_TIMEOUT = Duration.ofMinutes(2);
    private static final SqlFunctions.LikeFunction LIKE = new SqlFunctions.LikeFunction();
    private static final String SOURCE_RATE_LIMIT = "source_rate_limit";

    private final ServiceContext context;

    JobCommands(ServiceContext context) {
        this.context = context;
    }

    /** Jobs still being created, in every instance of the cluster, oldest first. */
    List<Job> creating() {
        return context.store().jobs().stream()
            .filter(job -> job.status().isBeingCreated())
            .sorted(Comparator.comparingLong(Job::id))
            .toList();
    }

    /** Background statements (POST /v1/statements?async=true) still running, oldest first. */
    List<StatementJob> runningStatements() {
        return context.store().statements().stream()
            .filter(statement -> statement.status() == StatementStatus.RUNNING)
            .sorted(Comparator.comparingLong(StatementJob::id))
            .toList();
    }

    /**
     * SHOW JOBS [LIKE 'pattern']: the pattern (PostgreSQL's LIKE, with {@code \\} as its escape) matches the name of
     * the object a job creates, or a background statement's text, which names no object.
     */
    StatementResult show(Optional<String> like) {
        Predicate<String> matches = like.<Predicate<String>>map(pattern -> text -> LIKE.like(text, pattern, "\\"))
            .orElse(text -> true);
        List<List<Object>> rows = new ArrayList<>();
        for (Job job : creating()) {
            if (matches.test(job.objectName())) {
                rows.add(Arrays.asList(job.id(), job.statement(), progress(job)));
            }
        }
        for (StatementJob statement : runningStatements()) {
            if (!matches.test(statement.statement())) {
                continue;
            }
            // How much of its output is unknown until it ends: say what it has written so far.
            long written = context.store().progress(statement.id()).map(StatementProgress::rowsWritten).orElse(0L);
            rows.add(Arrays.asList(statement.id(), statement.statement(),
                String.format(Locale.ROOT, "%,d rows written", written)));
        }
        rows.sort(Comparator.comparingLong(row -> (Long) row.get(0)));
        return new StatementResult.Rows(List.of(
            new ResultColumn("Id", SqlType.BIGINT),
            new ResultColumn("Statement", SqlType.VARCHAR),
            new ResultColumn("Progress", SqlType.VARCHAR)), rows, "SHOW");
    }

    /** Cancels each job or background statement; throws, having cancelled those before it, at the first that is not running. */
    StatementResult cancel(List<Long> ids) {
        List<List<Object>> cancelled = new ArrayList<>();
        for (long id : ids) {
            if (runningStatements().stream().anyMatch(statement -> statement.id() == id)) {
                context.store().cancel(id, "cancelled by user");
                cancelled.add(Arrays.asList(id));
                continue;
            }
            Optional<Job> job = context.store().job(id).filter(candidate -> candidate.status().isBeingCreated());
            if (job.isEmpty()) {
                throw SqlError.of(SqlState.UNDEFINED_OBJECT, "job " + id + " does not exist or is not being created");
            }
            context.store().cancelCreate(job.get(), "cancelled by user");
            cancelled.add(Arrays.asList(id));
        }
        return new StatementResult.Rows(List.of(new ResultColumn("Id", SqlType.BIGINT)), cancelled, "CANCEL_JOBS");
    }

    /**
     * ALTER {MATERIALIZED VIEW | SINK | INDEX} x SET BACKFILL_RATE_LIMIT = n, while it is being created, and SET
     * PARALLELISM = n, at any time: persisted beside the job, so they survive restarts. {@code = DEFAULT} is the
     * session's BACKFILL_RATE_LIMIT, and the default parallelism.
     */
    StatementResult alter(Session session, SqlAlterObject alter) {
        String name = alter.name().getSimple();
        String kind = alter.kind().sql().toLowerCase(Locale.ROOT);
        String option = alter.option();
        if (alter.kind() == SqlObjectKind.SOURCE) {
            return alterSource(alter);
        }
        if (!option.equals(JobOptions.BACKFILL_RATE_LIMIT) && !option.equals(JobOptions.PARALLELISM)) {
            throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "unrecognized " + kind + " option \"" + option + "\"", 0,
                "ALTER " + alter.kind().sql() + " sets BACKFILL_RATE_LIMIT or PARALLELISM");
        }
        if (option.equals(JobOptions.PARALLELISM)) {
            Integer threads = alter.value().map(JobOptions::parallelismOf).orElse(null);
            CatalogEntry entry = objectOfKind(alter.kind(), name);
            Job job = context.store().job(entry.jobId()).filter(candidate -> candidate.status() != JobStatus.CANCELLING)
                .orElseThrow(() -> SqlError.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    kind + " \"" + name + "\" has no running job"));
            context.store().setParallelism(job.id(), threads);
            return new StatementResult.Command("ALTER " + alter.kind().sql());
        }
        long limit = JobOptions.rateLimitOf(alter.value().orElseGet(() ->
            session.variable(JobOptions.BACKFILL_RATE_LIMIT).orElse("-1")));
        CatalogEntry entry = objectOfKind(alter.kind(), name);
        Job job = context.store().job(entry.jobId()).filter(candidate -> candidate.status().isBeingCreated())
            .orElseThrow(() -> SqlError.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                kind + " \"" + name + "\" is already created; BACKFILL_RATE_LIMIT applies while it is being created"));
        context.store().setRateLimit(job.id(), limit);
        return new StatementResult.Command("ALTER " + alter.kind().sql());
    }

    /**
     * ALTER SOURCE s SET SOURCE_RATE_LIMIT {= n | DEFAULT}: records per second every job reading the source reads it
     * at, from now on and across restarts, while it backfills and after (RisingWave's); 0 holds them, DEFAULT or a
     * negative value lifts it.
     */
    private StatementResult alterSource(SqlAlterObject alter) {
        if (!alter.option().equals(SOURCE_RATE_LIMIT)) {
            throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "unrecognized source option \"" + alter.option() + "\"",
                0, "ALTER SOURCE sets SOURCE_RATE_LIMIT");
        }
        Long limit = alter.value().map(value -> {
            try {
                return Long.parseLong(value.strip());
            } catch (NumberFormatException e) {
                throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"" + SOURCE_RATE_LIMIT
                    + "\": \"" + value + "\" (records per second; 0 holds every job reading the source, DEFAULT lifts it)");
            }
        }).filter(recordsPerSecond -> recordsPerSecond >= 0).orElse(null);
        CatalogEntry source = objectOfKind(SqlObjectKind.SOURCE, alter.name().getSimple());
        context.store().setSourceRateLimit(source.name(), limit);
        return new StatementResult.Command("ALTER SOURCE");
    }

    /**
     * ALTER SYSTEM SET, the cluster's settings, kept in the job store so that every instance applies the same:
     * max_concurrent_creating_jobs = n (0: no limit; RESET: the default, 8), how many jobs of the whole cluster backfill
     * at once, the others waiting in creation order; and shared_views = on | off (RESET: off), whether created views
     * move into the shared Kafka Streams application.
     */
    StatementResult alterSystem(SqlSetOption option) {
        String name = String.join(".", ((SqlIdentifier) option.name()).names).toLowerCase(Locale.ROOT);
        if (!name.equals(JobStore.MAX_CONCURRENT_CREATING_JOBS) && !name.equals(JobStore.SHARED_VIEWS)) {
            throw SqlError.at(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"" + name + "\"", 0,
                "ALTER SYSTEM sets " + JobStore.MAX_CONCURRENT_CREATING_JOBS + " and " + JobStore.SHARED_VIEWS
                    + " only; SET sets a session's variables");
        }
        SqlNode value = option.getValue();
        String text = value == null || SessionCommands.isDefault(value) ? null
            : value instanceof SqlLiteral literal ? literal.toValue() : value.toString();
        String stored = text == null ? null : name.equals(JobStore.SHARED_VIEWS) ? String.valueOf(onOrOff(name, text))
            : String.valueOf(nonNegative(name, text));
        context.store().putSetting(name, stored);
        return new StatementResult.Command("ALTER SYSTEM");
    }

    private static int nonNegative(String name, String text) {
        try {
            int value = Integer.parseInt(text);
            if (value < 0) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "parameter \"" + name
                + "\" requires a non-negative integer value (0: no limit), not " + text);
        }
    }

    /** PostgreSQL's spellings of a boolean setting. */
    private static boolean onOrOff(String name, String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes", "1" -> true;
            case "off", "false", "no", "0" -> false;
            default -> throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "parameter \"" + name
                + "\" requires a Boolean value");
        };
    }

    /**
     * PAUSE JOB: the backfill stops where it is and keeps its progress and its place in SHOW JOBS until RESUME; a
     * job already paused (or, for RESUME, not paused) is left as it is. Throws, having done those before it, at the
     * first id that is no job being created.
     */
    StatementResult pause(List<Long> ids, boolean resume) {
        for (long id : ids) {
            if (runningStatements().stream().anyMatch(statement -> statement.id() == id)) {
                throw SqlError.of(SqlState.WRONG_OBJECT_TYPE, "job " + id + " is a background statement: only a "
                    + "backfill can be paused or resumed (CANCEL JOB stops a statement)");
            }
            Job job = context.store().job(id).filter(candidate -> candidate.status() != JobStatus.CANCELLING)
                .orElseThrow(() -> SqlError.of(SqlState.UNDEFINED_OBJECT, "job " + id + " does not exist"));
            if (!job.status().isBeingCreated()) {
                throw SqlError.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "job " + id + " is not being created ("
                    + job.status().name().toLowerCase(Locale.ROOT) + "): only a backfill can be paused or resumed");
            }
            if (resume) {
                context.store().resume(id);
            } else {
                context.store().pause(id);
            }
        }
        return new StatementResult.Command(resume ? "RESUME" : "PAUSE");
    }

    /** The object of that name, which must be of that kind: 42P01 or 42704 if there is none, 42809 if another kind. */
    private CatalogEntry objectOfKind(SqlObjectKind kind, String name) {
        String what = kind.sql().toLowerCase(Locale.ROOT);
        CatalogEntry entry = context.catalog().entry(name).orElseThrow(() -> SqlError.of(
            kind == SqlObjectKind.SINK || kind == SqlObjectKind.INDEX ? SqlState.UNDEFINED_OBJECT
                : SqlState.UNDEFINED_TABLE, what + " \"" + name + "\" does not exist"));
        if (!entry.kind().name().equals(kind.name())) {
            throw SqlError.of(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not " + withArticle(what)
                + ": it is " + withArticle(SqlObjectKind.valueOf(entry.kind().name()).sql().toLowerCase(Locale.ROOT)));
        }
        return entry;
    }

    StatementResult awaitAll(Session session) {
        while (true) {
            session.checkCancelled();
            if (creating().isEmpty() && runningStatements().isEmpty()) {
                return new StatementResult.Command("WAIT");
            }
            pause();
        }
    }

    /**
     * WAIT MATERIALIZED VIEW | SINK | INDEX | TABLE name: returns once the object is created and its state is whole on
     * every instance (after a restart, restored from its changelogs), at once if it is (a table is created by its
     * statement). Waiting does not own the job: a WAIT that ends early leaves it running.
     */
    StatementResult awaitObject(Session session, SqlWait.Target target) {
        CatalogEntry entry = objectOfKind(target.kind(), target.name());
        if (entry.jobId() == 0) {
            return new StatementResult.Command("WAIT");
        }
        if (!entry.visible()) {
            await(session, entry.jobId(), Notices.NONE, false);
        }
        while (!context.runner().hydrated(entry.jobId())) {
            if (context.store().job(entry.jobId()).filter(job -> job.status() == JobStatus.CREATED).isEmpty()) {
                String state = context.store().job(entry.jobId()).map(job -> job.status().name().toLowerCase(Locale.ROOT))
                    .orElse("removed");
                throw SqlError.of(SqlState.QUERY_CANCELED, "job " + entry.jobId() + " of " + target.name()
                    + " is no longer created: it is " + state);
            }
            session.checkCancelled();
            pause();
        }
        return new StatementResult.Command("WAIT");
    }

    private static String withArticle(String kind) {
        return ("aeiou".indexOf(kind.charAt(0)) >= 0 ? "an " : "a ") + kind;
    }

    /**
     * A foreground CREATE's wait for its job, with a notice about once a second: the job exists for this wait, so a wait
     * that ends early (Ctrl-C, a timeout, the client gone, the instance stopping) cancels it.
     */
    void awaitCreated(Session session, long jobId, Notices notices) {
        await(session, jobId, notices, true);
    }

    /** Waits for a job to create its object; only a wait that {@code ownsJob} cancels the job when it ends early. */
    private void await(Session session, long jobId, Notices notices, boolean ownsJob) {
        String reported = null;
        long lastNotice = 0;
        while (true) {
            Optional<Job> job = context.store().job(jobId);
            if (job.isEmpty() || job.get().status() == JobStatus.CANCELLING) {
                String why = context.store().cancelled(jobId).map(reason -> ": " + reason).orElse("");
                throw SqlError.of(SqlState.QUERY_CANCELED, "job " + jobId + " was cancelled" + why);
            }
            switch (job.get().status()) {
                case CREATED -> {
                    return;
                }
                case FAILED -> throw SqlError.of(SqlState.INTERNAL_ERROR,
                    "job " + jobId + " failed: " + job.get().failure());
                default -> {
                }
            }
            try {
                session.checkCancelled();
            } catch (SqlError cancelled) {
                if (ownsJob) {
                    context.store().cancelCreate(job.get(), "statement cancelled by the client");
                }
                throw cancelled;
            }
            long now = System.nanoTime();
            String progress = progress(job.get());
            if (now - lastNotice > 1_000_000_000L && !progress.equals(reported)) {
                reported = progress;
                lastNotice = now;
                try {
                    notices.notice("job " + jobId + " (" + job.get().objectName() + "): " + progress.replaceFirst("%", "% done"));
                } catch (UncheckedIOException gone) {
                    // The client is gone (a foreground job's notices are the only writes while it waits): as for a
                    // cancel, its job must not go on, or it would make an object nobody asked for any more.
                    context.store().cancelCreate(job.get(), "the client disconnected");
                    throw SqlError.of(SqlState.QUERY_CANCELED, "canceling statement: the client disconnected");
                }
            }
            try {
                pause();
            } catch (SqlError shutdown) {
                if (!ownsJob) {
                    throw shutdown;
                }
                // The instance stops: its client goes with it, so the job must not go on (see ForegroundJobWatch).
                Thread.interrupted();
                try {
                    context.store().cancelCreate(job.get(), "client connection lost: the instance it was connected to stopped");
                } finally {
                    Thread.currentThread().interrupt();
                }
                throw shutdown;
            }
        }
    }

    StatementResult flush(Session session) {
        context.writer().flush();
        List<Job> created = context.store().jobs().stream()
            .filter(job -> job.status() == JobStatus.CREATED)
            .sorted(Comparator.comparingLong(Job::id))
            .toList();
        try {
            context.runner().awaitCaughtUp(created, FLUSH_TIMEOUT, behind -> {
                try {
                    session.checkCancelled();
                } catch (SqlError stopped) {
                    throw stopped.withDetail(behind(behind));
                }
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SqlError.of(SqlState.QUERY_CANCELED, "FLUSH interrupted");
        } catch (JobRunner.NotCaughtUp e) {
            throw SqlError.at(SqlState.QUERY_CANCELED, "FLUSH gave up after " + FLUSH_TIMEOUT.toMinutes() + " minutes", 0,
                "SET statement_timeout bounds how long FLUSH waits; SHOW JOBS lists background statements").withDetail(behind(e.job()));
        }
        session.checkCancelled();
        return new StatementResult.Command("FLUSH");
    }

    /**
     * Why FLUSH is still waiting for {@code job}: its object has not read its sources up to their ends, and, when one
     * of them is a table a transaction is writing, that a view reads a transaction's rows only once it ends.
     */
    private String behind(Job job) {
        String object = context.catalog().entry(job.objectName())
            .map(entry -> entry.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " \"" + entry.name() + "\"")
            .orElse("\"" + job.objectName() + "\"");
        List<String> written = new ArrayList<>();
        for (String topic : Offsets.topicsOf(job.targetOffsets())) {
            try {
                if (OpenTransactions.on(context.admin(), topic)) {
                    written.add(context.catalog().relations().stream().filter(relation -> relation.topic().equals(topic))
                        .map(relation -> "\"" + relation.name() + "\"").findFirst().orElse("topic " + topic));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
                // Then the detail names the view only.
            }
        }
        String detail = object + " has not yet processed its sources up to where they ended when FLUSH began.";
        return written.isEmpty() ? detail : detail + " A background statement's transaction is open on "
            + String.join(", ", written) + ": its rows, and those written there after it began, reach views only once it ends.";
    }

    /** The job's progress, and what keeps it from running on this instance if anything does. */
    private String progress(Job job) {
        JobState state = JobState.of(job, context.store());
        Optional<String> problem = state == JobState.PAUSED || state == JobState.QUEUED ? Optional.empty()
            : context.runner().localProblem(job.id());
        if (problem.isPresent()) {
            return percent(job.shownProgress()) + " (" + problem.get() + ")";
        }
        if (state == JobState.WAITING) {
            List<String> awaited = context.store().awaitedBy(job);
            // Between the last of them being created and the job taking its offsets, it is as good as starting.
            String waiting = awaited.isEmpty() ? "starting" : "waiting for " + String.join(", ", awaited);
            return percent(0) + " (" + waiting + (context.store().paused(job.id()) ? "; paused" : "") + ")";
        }
        return percent(job.shownProgress()) + (state == JobState.BACKFILLING ? "" : " (" + state.label() + ")");
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.2f%%", fraction * 100);
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SqlError.of(SqlState.QUERY_CANCELED, "canceling statement due to server shutdown");
        }
    }
}
