package io.kafkamv.service.statement;

import io.kafkamv.compiler.CompileException;
import io.kafkamv.compiler.SqlStatementParser;
import io.kafkamv.compiler.parser.SqlCancelJobs;
import io.kafkamv.compiler.parser.SqlCreateIndex;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlCreateRelation;
import io.kafkamv.compiler.parser.SqlCreateSink;
import io.kafkamv.compiler.parser.SqlDropObject;
import io.kafkamv.compiler.parser.SqlFlush;
import io.kafkamv.compiler.parser.SqlObjectKind;
import io.kafkamv.compiler.parser.SqlShow;
import io.kafkamv.compiler.parser.SqlWait;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlErrors;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.Notices;
import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.result.StatementResult;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one statement of a session. The edges (pgwire, REST) split what the client sent with
 * {@link SqlScript} and call this once per statement, so both doors behave the same way.
 */
public final class StatementExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(StatementExecutor.class);

    private final ServiceContext context;
    private final TableCommands tables;
    private final JobCommands jobs;
    private final ViewCommands views;
    private final SessionCommands sessions;
    private final PsqlCatalog psqlCatalog;

    public StatementExecutor(ServiceContext context) {
        this.context = context;
        this.tables = new TableCommands(context);
        this.jobs = new JobCommands(context);
        this.views = new ViewCommands(context, jobs, tables);
        this.sessions = new SessionCommands(context);
        this.psqlCatalog = new PsqlCatalog(context.catalog());
    }

    public Session openSession(String user, String database) {
        return openSession(user, database, context.writer());
    }

    /** A session whose writes go through {@code writer}, such as a background statement's transaction. */
    public Session openSession(String user, String database, io.kafkamv.service.tables.TableWriter writer) {
        return new Session(user, database, writer);
    }

    public StatementResult execute(Session session, String text, Notices notices) {
        session.beginStatement();
        String transactionTag = transactionTag(text);
        if (transactionTag != null) {
            // Views are kept up to date continuously; there is no transaction to open or commit.
            // Clients such as pgjdbc with autocommit off send these anyway: accept them.
            return new StatementResult.Command(transactionTag);
        }
        if (PsqlCatalog.isCatalogQuery(text)) {
            try {
                return context.queries().query(text, session::running);
            } catch (RuntimeException clientCatalogQuery) {
                // psql's and pgjdbc's own catalog queries use PostgreSQL's functions, casts and operators.
                return psqlCatalog.answer(text);
            }
        }
        long started = System.nanoTime();
        String kind = "unknown";
        String failure = null;
        try {
            SqlNode node = SqlStatementParser.parse(text);
            kind = kind(node);
            return dispatch(session, node, text, notices);
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
                LOG.error("Statement failed unexpectedly: {}", io.kafkamv.compiler.Redaction.statement(text), e);
            }
            failure = error.state().code();
            throw error;
        } finally {
            context.metrics().statement(kind, java.time.Duration.ofNanos(System.nanoTime() - started), failure);
        }
    }

    /** A low-cardinality name for a statement, for metrics: select, insert, create_materialized_view, ... */
    private static String kind(SqlNode node) {
        if (node instanceof io.kafkamv.compiler.parser.SqlCreateRelation relation) {
            return "create_" + relation.kind().name().toLowerCase(java.util.Locale.ROOT);
        }
        boolean ours = node.getKind() == SqlKind.OTHER || node.getKind() == SqlKind.OTHER_DDL;
        String name = ours
            ? node.getClass().getSimpleName().replaceFirst("^Sql", "").replaceAll("([a-z])([A-Z])", "$1_$2")
            : node.getKind().name();
        return name.toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The result columns a statement will have, without running it (for a query), or an empty list
     * for statements that return no rows. Parameters ({@code $1}) are planned as nulls.
     */
    public java.util.List<ResultColumn> describe(Session session, String text) {
        if (transactionTag(text) != null) {
            return java.util.List.of();
        }
        try {
            SqlNode node = SqlStatementParser.parse(text.replaceAll("\\$\\d+", "NULL"));
            if (node.getKind().belongsTo(SqlKind.QUERY)) {
                return context.queries().describe(text.replaceAll("\\$\\d+", "NULL"));
            }
            if (node instanceof SqlShow show) {
                StatementResult result = show.what() == SqlShow.What.JOBS ? jobs.show() : sessions.show(session, show);
                return ((StatementResult.Rows) result).columns();
            }
            return java.util.List.of();
        } catch (CompileException e) {
            throw SqlErrors.from(e);
        } catch (ExceptionInInitializerError e) {
            throw SqlErrors.fromRunning(e);
        }
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
        boolean dml = node instanceof SqlInsert || node instanceof org.apache.calcite.sql.SqlUpdate
            || node instanceof org.apache.calcite.sql.SqlDelete;
        if (!dml && !(node instanceof SqlSetOption) && !node.getKind().belongsTo(SqlKind.QUERY)) {
            throw SqlError.at(SqlState.FEATURE_NOT_SUPPORTED, "a background statement runs queries, INSERT, UPDATE, "
                + "DELETE and SET, not " + kind(node).replace('_', ' ').toUpperCase(java.util.Locale.ROOT), 1,
                "run it without async=true; SET BACKGROUND_DDL = true makes CREATE return at once");
        }
    }

    private static String transactionTag(String text) {
        String word = text.strip().split("\\s+", 2)[0].toUpperCase(java.util.Locale.ROOT);
        return switch (word) {
            case "BEGIN", "START" -> "BEGIN";
            case "COMMIT", "END" -> "COMMIT";
            case "ROLLBACK", "ABORT" -> "ROLLBACK";
            default -> null;
        };
    }

    private StatementResult dispatch(Session session, SqlNode node, String text, Notices notices) {
        if (node instanceof SqlCreateMaterializedView view) {
            return views.create(session, view, text, notices);
        }
        if (node instanceof SqlCreateRelation relation) {
            return tables.create(relation, text, notices);
        }
        if (node instanceof SqlCreateSink sink) {
            return views.createSink(session, sink, text, notices);
        }
        if (node instanceof SqlCreateIndex index) {
            return views.createIndex(session, index, text, notices);
        }
        if (node instanceof SqlDropObject drop) {
            return drop(drop, notices);
        }
        if (node instanceof SqlShow show) {
            return show.what() == SqlShow.What.JOBS ? jobs.show() : sessions.show(session, show);
        }
        if (node instanceof org.apache.calcite.sql.SqlDescribeTable describe) {
            return sessions.describe(describe);
        }
        if (node instanceof SqlCancelJobs cancel) {
            return jobs.cancel(cancel.jobIds());
        }
        if (node instanceof SqlWait wait) {
            return wait.view().isPresent() ? jobs.awaitView(session, wait.view().get().getSimple()) : jobs.awaitAll(session);
        }
        if (node instanceof io.kafkamv.compiler.parser.SqlAlterMaterializedView alter) {
            return jobs.alter(alter);
        }
        if (node instanceof io.kafkamv.compiler.parser.SqlExplainStatement explain) {
            String plan = new io.kafkamv.compiler.SqlCompiler(context.catalog(), context.topicPartitions()).explain(explain.statement(), text);
            java.util.List<java.util.List<Object>> lines = plan.lines()
                .map(line -> java.util.Arrays.<Object>asList(line)).toList();
            return new StatementResult.Rows(java.util.List.of(new ResultColumn("QUERY PLAN",
                io.kafkamv.connectors.schema.SqlType.VARCHAR)), lines, "EXPLAIN");
        }
        if (node instanceof SqlFlush) {
            return jobs.flush(session);
        }
        if (node instanceof SqlSetOption option) {
            return sessions.set(session, option);
        }
        if (node instanceof SqlInsert insert) {
            return tables.insert(session, insert, text);
        }
        if (node instanceof org.apache.calcite.sql.SqlUpdate || node instanceof org.apache.calcite.sql.SqlDelete) {
            return tables.updateOrDelete(session, (org.apache.calcite.sql.SqlCall) node, text);
        }
        if (node.getKind().belongsTo(SqlKind.QUERY)) {
            return context.queries().query(text, session::running);
        }
        throw SqlError.at(SqlState.FEATURE_NOT_SUPPORTED, node.getKind().sql.replace('_', ' ') + " is not supported yet",
            1, null);
    }

    private StatementResult drop(SqlDropObject drop, Notices notices) {
        String name = drop.name().getSimple();
        String kind = drop.kind().sql().toLowerCase(java.util.Locale.ROOT);
        CatalogEntry entry = context.catalog().entry(name).orElse(null);
        if (entry == null || !kind(entry.kind()).equals(drop.kind())) {
            if (drop.ifExists()) {
                notices.notice(kind + " \"" + name + "\" does not exist, skipping");
                return new StatementResult.Command(drop.kind().dropTag());
            }
            throw SqlError.of(SqlState.UNDEFINED_TABLE, kind + " \"" + name + "\" does not exist");
        }
        if (!entry.visible()) {
            context.store().job(entry.jobId()).ifPresent(job -> jobs.cancel(job, "dropped while being created"));
            return new StatementResult.Command(drop.kind().dropTag());
        }
        return views.drop(entry, drop.cascade());
    }

    private static SqlObjectKind kind(ObjectKind kind) {
        return SqlObjectKind.valueOf(kind.name());
    }
}
