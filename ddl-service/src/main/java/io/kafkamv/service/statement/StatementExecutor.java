package io.kafkamv.service.statement;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.parser.Redaction;
import io.kafkamv.compiler.parser.SqlAlterObject;
import io.kafkamv.compiler.parser.SqlCancelJobs;
import io.kafkamv.compiler.parser.SqlCreateIndex;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlCreateRelation;
import io.kafkamv.compiler.parser.SqlCreateSink;
import io.kafkamv.compiler.parser.SqlDropObject;
import io.kafkamv.compiler.parser.SqlExplainStatement;
import io.kafkamv.compiler.parser.SqlFlush;
import io.kafkamv.compiler.parser.SqlObjectKind;
import io.kafkamv.compiler.parser.SqlPauseJobs;
import io.kafkamv.compiler.parser.SqlShow;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.parser.SqlWait;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlErrors;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.Notices;
import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.result.StatementResult;
import io.kafkamv.service.tables.TableWriter;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.SqlUpdate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one statement of a session: parses it once and hands the parse tree to the command that runs
 * its kind. Scripts come here through {@link ScriptRunner}, one statement at a time.
 */
public final class StatementExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(StatementExecutor.class);

    private final ServiceContext context;
    private final TableCommands tables;
    private final TableWrites writes;
    private final JobCommands jobs;
    private final ViewCommands views;
    private final SessionCommands sessions;
    private final PsqlCatalog psqlCatalog;
    private final Map<Class<?>, Handler<SqlNode>> handlers = new HashMap<>();

    public StatementExecutor(ServiceContext context) {
        this.context = context;
        this.tables = new TableCommands(context);
        this.writes = new TableWrites(context);
        this.jobs = new JobCommands(context);
        this.views = new ViewCommands(context, jobs, tables);
        this.sessions = new SessionCommands(context);
        this.psqlCatalog = new PsqlCatalog(context.catalog());
        registerHandlers();
    }

    public Session openSession(String user, String database) {
        return openSession(user, database, context.writer());
    }

    /** A session whose writes go through {@code writer}, such as a background statement's transaction. */
    public Session openSession(String user, String database, TableWriter writer) {
        return new Session(user, database, writer);
    }

    /** PostgreSQL's spelling of {@code SHOW transaction_isolation}, which SQLAlchemy sends on connecting. */
    private static final java.util.regex.Pattern SHOW_ISOLATION =
        java.util.regex.Pattern.compile("(?i)\\s*SHOW\\s+TRANSACTION\\s+ISOLATION\\s+LEVEL\\s*");

    public StatementResult execute(Session session, String sql, Notices notices) {
        session.beginStatement();
        try {
            return run(session, sql, notices);
        } finally {
            session.endStatement();
        }
    }

    private StatementResult run(Session session, String sql, Notices notices) {
        String text = SHOW_ISOLATION.matcher(sql).matches() ? "SHOW transaction_isolation" : sql;
        String transactionTag = transactionTag(text);
        if (transactionTag != null) {
            // Views are kept up to date continuously; there is no transaction to open or commit.
            // Clients such as pgjdbc with autocommit off send these anyway: accept them. A transaction
            // block only bounds the life of its cursors.
            if (transactionTag.equals("BEGIN")) {
                session.cursors().beginTransaction();
            } else {
                session.cursors().endTransaction();
            }
            return new StatementResult.Command(transactionTag);
        }
        if (CopyStatement.handles(text)) {
            return measured(text, kind -> {
                kind.name = "copy";
                return copy(session, CopyStatement.parse(text), text, notices);
            });
        }
        if (Deallocate.handles(text)) {
            return Deallocate.run(session.preparedStatements(), text);
        }
        if (Cursors.handles(text)) {
            return measured(text, kind -> {
                kind.name = "cursor";
                return session.cursors().run(text, query -> execute(session, query, notices));
            });
        }
        if (PsqlCatalog.isCatalogQuery(text)) {
            try {
                return context.queries().query(SqlStatementParser.parse(text), text, session);
            } catch (RuntimeException clientCatalogQuery) {
                // psql's and pgjdbc's own catalog queries use PostgreSQL's functions, casts and operators.
                return psqlCatalog.answer(text);
            }
        }
        return measured(text, kind -> {
            SqlNode node = SqlStatementParser.parse(text);
            kind.name = kind(node);
            return dispatch(session, node, text, notices);
        });
    }

    /**
     * CANCEL JOBS for a door that has the ids, not SQL text (REST): counted in the statement metrics,
     * and failing with the same errors, as the statement.
     */
    public StatementResult cancelJobs(List<Long> ids) {
        String text = "CANCEL JOBS " + String.join(", ", ids.stream().map(String::valueOf).toList());
        return measured(text, kind -> {
            kind.name = "cancel_jobs";
            return jobs.cancel(ids);
        });
    }

    /** PAUSE JOBS or RESUME JOBS for a door that has the ids (REST), as {@link #cancelJobs} is for CANCEL. */
    public StatementResult pauseJobs(List<Long> ids, boolean resume) {
        String verb = resume ? "RESUME" : "PAUSE";
        String text = verb + " JOBS " + String.join(", ", ids.stream().map(String::valueOf).toList());
        return measured(text, kind -> {
            kind.name = verb.toLowerCase(Locale.ROOT) + "_jobs";
            return jobs.pause(ids, resume);
        });
    }

    /** A statement's kind for the metrics, known once it is parsed. */
    private static final class StatementKind {
        String name = "unknown";
    }

    /** Runs {@code body}, records it in the statement metrics, and turns whatever it throws into a {@link SqlError}. */
    private StatementResult measured(String text, Function<StatementKind, StatementResult> body) {
        long started = System.nanoTime();
        StatementKind kind = new StatementKind();
        String failure = null;
        try {
            return body.apply(kind);
        } catch (CompileException e) {
            SqlError error = views.explainInvisible(SqlErrors.from(e));
            failure = error.state().code();
            throw error;
        } catch (SqlError e) {
            failure = e.state().code();
            throw e;
        } catch (RuntimeException | ExceptionInInitializerError e) {
            // The second: Calcite computes constant expressions (SELECT 1/0) in the static initializer of the code it generates.
            SqlError error = SqlErrors.fromRunning(e);
            if (error.state() == SqlState.INTERNAL_ERROR) {
                LOG.error("Statement failed unexpectedly: {}", Redaction.statement(text), e);
            }
            failure = error.state().code();
            throw error;
        } finally {
            context.metrics().statement(kind.name, Duration.ofNanos(System.nanoTime() - started), failure);
        }
    }

    /** A low-cardinality name for a statement, for metrics: select, insert, create_materialized_view, ... */
    private static String kind(SqlNode node) {
        if (node instanceof SqlCreateRelation relation) {
            return "create_" + relation.kind().name().toLowerCase(Locale.ROOT);
        }
        if (node instanceof SqlAlterObject alter) {
            return "alter_" + alter.kind().name().toLowerCase(Locale.ROOT);
        }
        if (node instanceof SqlPauseJobs pause) {
            return pause.resume() ? "resume_jobs" : "pause_jobs";
        }
        boolean ours = node.getKind() == SqlKind.OTHER || node.getKind() == SqlKind.OTHER_DDL;
        String name = ours
            ? node.getClass().getSimpleName().replaceFirst("^Sql", "").replaceAll("([a-z])([A-Z])", "$1_$2")
            : node.getKind().name();
        return name.toLowerCase(Locale.ROOT);
    }

    /**
     * The result columns a statement will have, without running it (for a query), or an empty list
     * for statements that return no rows. Parameters ({@code $1}) are planned as nulls.
     */
    public List<ResultColumn> describe(Session session, String text) {
        if (transactionTag(text) != null) {
            return List.of();
        }
        try {
            String planned = text.replaceAll("\\$\\d+", "NULL");
            SqlNode node = SqlStatementParser.parse(planned);
            if (node.getKind().belongsTo(SqlKind.QUERY)) {
                return context.queries().describe(node, planned);
            }
            if (node instanceof SqlShow show) {
                return ((StatementResult.Rows) show(session, show)).columns();
            }
            return List.of();
        } catch (CompileException e) {
            throw SqlErrors.from(e);
        } catch (ExceptionInInitializerError e) {
            throw SqlErrors.fromRunning(e);
        }
    }

    /**
     * The types of the parameters of {@code jdbcSql}, a statement with a {@code ?} in place of each of its
     * parameters, one per {@code ?} in order; null where the statement does not say (see {@link ParameterTypes}).
     */
    public List<SqlType> parameterTypes(Session session, String jdbcSql) {
        if (transactionTag(jdbcSql) != null) {
            return List.of();
        }
        try {
            return ParameterTypes.of(SqlStatementParser.parse(jdbcSql), context.queries(), this::tableOrNull);
        } catch (CompileException | SqlError e) {
            // The statement's error is the one Bind or Execute reports; a parameter it cannot type is text.
            return List.of();
        }
    }

    private StatementResult copy(Session session, CopyStatement copy, String text, Notices notices) {
        if (!session.streamsCopyData()) {
            throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED, "COPY needs the PostgreSQL protocol, which carries its data")
                .withDetail("Use INSERT here, or COPY through psql or a PostgreSQL driver.");
        }
        if (copy.from()) {
            return writes.copyFrom(session, copy, text);
        }
        String query = copy.query() != null ? copy.query() : "SELECT " + (copy.columns().isEmpty() ? "*"
            : String.join(", ", copy.columns().stream().map(StatementExecutor::quoted).toList()))
            + " FROM " + quoted(copy.table());
        if (!(execute(session, query, notices) instanceof StatementResult.Rows rows)) {
            throw SqlError.of(SqlState.SYNTAX_ERROR, "COPY (query) TO needs a query that returns rows");
        }
        return new StatementResult.CopyOut(rows, copy.format());
    }

    private static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private Relation tableOrNull(String name) {
        return context.catalog().entry(name).filter(CatalogEntry::visible).filter(entry -> entry.definition() != null
            && entry.definition().has("schema")).map(CatalogService::relation).orElse(null);
    }

    /**
     * Throws unless a background statement may run this one: a query, INSERT, UPDATE, DELETE or SET,
     * whose effects commit with the rest of its script. Parses it, so that a typo is reported at once.
     */
    public void requireBackgroundable(String text) {
        SqlNode node;
        try {
            node = SqlStatementParser.parse(text);
        } catch (CompileException e) {
            throw SqlErrors.from(e);
        }
        boolean dml = node instanceof SqlInsert || node instanceof SqlUpdate || node instanceof SqlDelete;
        if (!dml && !(node instanceof SqlSetOption) && !node.getKind().belongsTo(SqlKind.QUERY)) {
            throw SqlError.at(SqlState.FEATURE_NOT_SUPPORTED, "a background statement runs queries, INSERT, UPDATE, "
                + "DELETE and SET, not " + kind(node).replace('_', ' ').toUpperCase(Locale.ROOT), 1,
                "run it without async=true; SET BACKGROUND_DDL = true makes CREATE return at once");
        }
    }

    private static String transactionTag(String text) {
        String word = text.strip().split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
        return switch (word) {
            case "BEGIN", "START" -> "BEGIN";
            case "COMMIT", "END" -> "COMMIT";
            case "ROLLBACK", "ABORT" -> "ROLLBACK";
            default -> null;
        };
    }

    /** How a statement of one parse-tree class runs. */
    @FunctionalInterface
    private interface Handler<T extends SqlNode> {
        StatementResult run(Session session, T node, String text, Notices notices);
    }

    private <T extends SqlNode> void on(Class<T> type, Handler<T> handler) {
        handlers.put(type, (session, node, text, notices) -> handler.run(session, type.cast(node), text, notices));
    }

    /** Every statement but a query, by the class the parser makes of it. */
    private void registerHandlers() {
        on(SqlCreateMaterializedView.class, (session, view, text, notices) -> views.create(session, view, text, notices));
        on(SqlCreateRelation.class, (session, relation, text, notices) -> tables.create(relation, text, notices));
        on(SqlCreateSink.class, (session, sink, text, notices) -> views.createSink(session, sink, text, notices));
        on(SqlCreateIndex.class, (session, index, text, notices) -> views.createIndex(session, index, text, notices));
        on(SqlDropObject.class, (session, drop, text, notices) -> drop(drop, notices));
        on(SqlShow.class, (session, show, text, notices) -> show(session, show));
        on(SqlDescribeTable.class, (session, describe, text, notices) -> sessions.describe(describe));
        on(SqlCancelJobs.class, (session, cancel, text, notices) -> jobs.cancel(cancel.jobIds()));
        on(SqlWait.class, (session, wait, text, notices) -> wait.target().isPresent()
            ? jobs.awaitObject(session, wait.target().get()) : jobs.awaitAll(session));
        on(SqlAlterObject.class, (session, alter, text, notices) -> jobs.alter(session, alter));
        on(SqlPauseJobs.class, (session, pause, text, notices) -> jobs.pause(pause.jobIds(), pause.resume()));
        on(SqlExplainStatement.class, (session, explain, text, notices) -> explain(explain, text));
        on(SqlFlush.class, (session, flush, text, notices) -> jobs.flush(session));
        on(SqlSetOption.class, (session, option, text, notices) -> "SYSTEM".equalsIgnoreCase(option.getScope())
            ? jobs.alterSystem(option) : sessions.set(session, option, text));
        on(SqlInsert.class, (session, insert, text, notices) -> writes.insert(session, insert, text));
        on(SqlUpdate.class, (session, update, text, notices) -> writes.updateOrDelete(session, update, text));
        on(SqlDelete.class, (session, delete, text, notices) -> writes.updateOrDelete(session, delete, text));
    }

    private StatementResult dispatch(Session session, SqlNode node, String text, Notices notices) {
        for (Class<?> type = node.getClass(); type != null; type = type.getSuperclass()) {
            Handler<SqlNode> handler = handlers.get(type);
            if (handler != null) {
                return handler.run(session, node, text, notices);
            }
        }
        if (node.getKind().belongsTo(SqlKind.QUERY)) {
            return context.queries().query(node, text, session);
        }
        throw SqlError.at(SqlState.FEATURE_NOT_SUPPORTED, node.getKind().sql.replace('_', ' ') + " is not supported yet",
            1, null);
    }

    private StatementResult show(Session session, SqlShow show) {
        return show.what() == SqlShow.What.JOBS ? jobs.show(show.like()) : sessions.show(session, show);
    }

    private StatementResult explain(SqlExplainStatement explain, String text) {
        String plan = new SqlCompiler(context.catalog(), context.topicPartitions()).explain(explain.statement(), text);
        List<List<Object>> lines = plan.lines().map(line -> Arrays.<Object>asList(line)).toList();
        return new StatementResult.Rows(List.of(new ResultColumn("QUERY PLAN", SqlType.VARCHAR)), lines, "EXPLAIN");
    }

    private StatementResult drop(SqlDropObject drop, Notices notices) {
        String name = drop.name().getSimple();
        String kind = drop.kind().sql().toLowerCase(Locale.ROOT);
        CatalogEntry entry = context.catalog().entry(name).orElse(null);
        if (entry == null || !kind(entry.kind()).equals(drop.kind())) {
            if (drop.ifExists()) {
                notices.notice(kind + " \"" + name + "\" does not exist, skipping");
                return new StatementResult.Command(drop.kind().dropTag());
            }
            throw SqlError.of(SqlState.UNDEFINED_TABLE, kind + " \"" + name + "\" does not exist");
        }
        if (!entry.visible() && context.store().job(entry.jobId()).isEmpty()) {
            return new StatementResult.Command(drop.kind().dropTag());
        }
        return views.drop(entry, drop.cascade());
    }

    private static SqlObjectKind kind(ObjectKind kind) {
        return SqlObjectKind.valueOf(kind.name());
    }
}
