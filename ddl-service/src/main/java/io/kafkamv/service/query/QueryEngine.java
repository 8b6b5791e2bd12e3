package io.kafkamv.service.query;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.error.CalciteErrors;
import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.functions.KafkaMvFunctions;
import io.kafkamv.compiler.parser.SqlDialect;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.planner.ResultNames;
import io.kafkamv.compiler.types.PostgresInterval;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.result.StatementResult;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * Runs SELECT as a batch query over the current contents of tables and created views, with
 * Calcite's executor. Each query sees the catalog as it is when the query starts.
 */
public final class QueryEngine {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(QueryEngine.class);

    /** Calcite's driver, preparing queries with PostgreSQL's validation rules. */
    private static final org.apache.calcite.jdbc.Driver DRIVER =
        new org.apache.calcite.jdbc.Driver().withPrepareFactory(PostgresPrepare::new);

    private final CatalogService catalog;
    private final RelationReader reader;
    private final PointLookup pointLookup;
    private final Consumer<SchemaPlus> catalogSchemas;
    private final long maxResultBytes;

    /** {@code catalogSchemas} adds the schemas that describe the catalog (information_schema, pg_catalog). */
    public QueryEngine(CatalogService catalog, RelationReader reader, PointLookup.KeyReader keys,
                       PointLookup.IndexReader indexes, Consumer<SchemaPlus> catalogSchemas, long maxResultBytes) {
        this.maxResultBytes = maxResultBytes;
        this.catalog = catalog;
        this.reader = reader;
        this.pointLookup = new PointLookup(catalog, keys, indexes);
        this.catalogSchemas = catalogSchemas;
    }

    /** How much a query's result may take in memory unless configured: a quarter of the heap. */
    public static long defaultMaxResultBytes() {
        return ResultBudget.quarterOfTheHeap();
    }

    /** A table queries can scan: rows of {@code relation}'s schema, read when a query runs. */
    public static org.apache.calcite.schema.Table table(Relation relation, Supplier<? extends Iterable<Object[]>> rows) {
        // The catalog's rows are lists: nothing to close.
        return new RelationTable(relation, RelationTable.whole(rows), new OpenScans());
    }

    /** The values of {@code columns} (indexes, ascending, each once) of each of {@code rows}; all when null. */
    public static Iterable<Object[]> picked(Iterable<Object[]> rows, int[] columns) {
        return RelationTable.whole(() -> rows).read(columns, null);
    }

    /** A handle to stop the query a session is running. */
    public interface Cancellable {
        void cancel();
    }

    /** Who runs a query: the user {@code current_user} names, and where the running statement goes, to be cancelled. */
    public interface Caller {
        String user();

        /** The session's value of a setting, as SHOW gives it. */
        Optional<String> variable(String name);

        void running(Cancellable statement);

        /** The error of a statement the caller stopped through its {@link Cancellable}. */
        RuntimeException cancellation();
    }

    /** Runs the query {@code sql}, which the caller has parsed into {@code parsed}. */
    public StatementResult.Rows query(SqlNode parsed, String sql, Caller caller) {
        refuseLookups(parsed, sql);
        Optional<StatementResult.Rows> byKey = pointLookup.tryAnswer(parsed);
        if (byKey.isPresent()) {
            return byKey.get();
        }
        List<List<Object>> rows = new ArrayList<>();
        ResultBudget budget = new ResultBudget(maxResultBytes);
        List<ResultColumn> columns = forEachRow(sql, ResultNames.of(parsed), caller, row -> {
            budget.add(row);
            rows.add(Arrays.asList(row));
        });
        return new StatementResult.Rows(columns, rows);
    }

    /**
     * A lookup join's {@code FOR SYSTEM_TIME AS OF PROCTIME()} says how a view joins a table as its rows come; a
     * query reads every table as it is now, and Calcite's batch engine has no plan for it.
     */
    private static void refuseLookups(SqlNode parsed, String sql) {
        parsed.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
            @Override
            public Void visit(org.apache.calcite.sql.SqlCall call) {
                if (call instanceof org.apache.calcite.sql.SqlSnapshot snapshot) {
                    throw SqlError.at(SqlState.FEATURE_NOT_SUPPORTED,
                        "FOR SYSTEM_TIME AS OF is supported in materialized views, sinks and indexes, not in a query",
                        CompileException.positionOf(sql, snapshot.getPeriod().getParserPosition()),
                        "a query reads every table as it is now: leave FOR SYSTEM_TIME AS OF PROCTIME() out");
                }
                return super.visit(call);
            }
        });
    }

    /** Streams the rows of the query {@code sql}, parsed into {@code parsed}, to {@code action}; returns the result's columns. */
    public List<ResultColumn> forEachRow(SqlNode parsed, String sql, Caller caller, Consumer<Object[]> action) {
        refuseLookups(parsed, sql);
        return forEachRow(sql, ResultNames.of(parsed), caller, action);
    }

    /**
     * Streams the rows of a query the service wrote itself, which nobody sees the column names of:
     * unnamed expressions keep Calcite's {@code EXPR$n}.
     */
    public List<ResultColumn> forEachGeneratedRow(String sql, Caller caller, Consumer<Object[]> action) {
        return forEachRow(sql, List.of(), caller, action);
    }

    private List<ResultColumn> forEachRow(String sql, List<String> names, Caller caller, Consumer<Object[]> action) {
        Hook.Closeable division = PostgresQueryRules.inThisThread(caller);
        AtomicBoolean cancelled = new AtomicBoolean();
        try (OpenScans scans = new OpenScans(); java.sql.Connection connection = connect(scans);
             Statement statement = connection.createStatement()) {
            caller.running(() -> {
                cancelled.set(true);
                try {
                    statement.cancel();
                } catch (SQLException ignored) {
                    // The statement ended while we tried to stop it.
                }
            });
            try (ResultSet resultSet = statement.executeQuery(sql)) {
                List<ResultColumn> columns = columns(resultSet.getMetaData(), names);
                int count = columns.size();
                boolean[] yearMonth = new boolean[count];
                for (int i = 0; i < count; i++) {
                    yearMonth[i] = isYearMonthInterval(resultSet.getMetaData().getColumnTypeName(i + 1));
                }
                while (resultSet.next()) {
                    Object[] row = new Object[count];
                    for (int i = 1; i <= count; i++) {
                        row[i - 1] = yearMonth[i - 1] ? months(resultSet.getObject(i)) : value(resultSet.getObject(i));
                    }
                    action.accept(row);
                }
                return columns;
            }
        } catch (SQLException e) {
            throw cancelled.get() ? caller.cancellation() : translate(sql, e);
        } finally {
            try {
                caller.running(null);
            } finally {
                division.close();
            }
        }
    }

    /**
     * The types Calcite's validator gives the query's parameters ({@code ?}), one per parameter in order; null for
     * one it cannot tell the type of. Empty when the query does not plan: its error is for when it runs.
     */
    public List<SqlType> parameterTypes(String sql) {
        Hook.Closeable division = PostgresQueryRules.inThisThread(null);
        try (OpenScans scans = new OpenScans(); java.sql.Connection connection = connect(scans);
             java.sql.PreparedStatement statement = connection.prepareStatement(sql)) {
            java.sql.ParameterMetaData parameters = statement.getParameterMetaData();
            List<SqlType> types = new java.util.ArrayList<>();
            for (int i = 1; i <= parameters.getParameterCount(); i++) {
                int jdbcType = parameters.getParameterType(i);
                String typeName = parameters.getParameterTypeName(i);
                types.add(typeName != null && isDayTimeInterval(typeName) ? SqlType.INTERVAL
                    : jdbcType == Types.OTHER || jdbcType == Types.JAVA_OBJECT || jdbcType == Types.NULL
                    ? null : sqlType(jdbcType));
            }
            return types;
        } catch (SQLException | RuntimeException e) {
            return List.of();
        } finally {
            division.close();
        }
    }

    /** The columns the query {@code sql}, parsed into {@code parsed}, would return, from Calcite's plan, without running it. */
    public List<ResultColumn> describe(SqlNode parsed, String sql) {
        refuseLookups(parsed, sql);
        List<String> names = ResultNames.of(parsed);
        Hook.Closeable division = PostgresQueryRules.inThisThread(null);
        try (OpenScans scans = new OpenScans(); java.sql.Connection connection = connect(scans);
             java.sql.PreparedStatement statement = connection.prepareStatement(sql)) {
            return columns(statement.getMetaData(), names);
        } catch (SQLException e) {
            throw translate(sql, e);
        } finally {
            division.close();
        }
    }

    private static List<ResultColumn> columns(ResultSetMetaData meta, List<String> names) throws SQLException {
        int count = meta.getColumnCount();
        List<ResultColumn> columns = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            String label = meta.getColumnLabel(i);
            String name = label.startsWith("EXPR$") && i <= names.size() ? names.get(i - 1) : label;
            // Calcite's driver gives a timestamptz JDBC's type of a timestamp; its type name tells them apart.
            String typeName = meta.getColumnTypeName(i);
            SqlType type = typeName.startsWith("TIMESTAMP_WITH_LOCAL_TIME_ZONE") ? SqlType.TIMESTAMPTZ
                : isDayTimeInterval(typeName) || isYearMonthInterval(typeName) ? SqlType.INTERVAL
                : sqlType(meta.getColumnType(i));
            columns.add(new ResultColumn(name, type));
        }
        return columns;
    }

    private java.sql.Connection connect(OpenScans scans) throws SQLException {
        java.sql.Connection connection = DRIVER.connect("jdbc:calcite:", SqlDialect.connectionProperties());
        SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
        for (CatalogEntry entry : catalog.store().objects()) {
            if (entry.visible() && entry.definition() != null && entry.definition().has("schema")) {
                Relation relation = CatalogService.relation(entry);
                root.add(relation.name(), new RelationTable(relation, (columns, filter) -> reader.rows(entry, columns, filter), scans));
            }
        }
        GenerateSeries.addTo(root);
        KafkaMvFunctions.addTo(root);
        io.kafkamv.compiler.types.CalciteTypes.addPostgresNames(root);
        catalogSchemas.accept(root);
        return connection;
    }

    /** A value as the endpoints write it: Calcite's driver gives an array as a JDBC array, written from its list. */
    private static Object value(Object value) throws SQLException {
        if (!(value instanceof java.sql.Array array)) {
            return value;
        }
        Object elements = array.getArray();
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < java.lang.reflect.Array.getLength(elements); i++) {
            list.add(value(java.lang.reflect.Array.get(elements, i)));
        }
        return list;
    }

    /** Calcite's driver names an interval's type by its units, as {@code INTERVAL_DAY_SECOND}; a JDBC type it has none. */
    private static boolean isDayTimeInterval(String typeName) {
        return typeName.startsWith("INTERVAL") && !typeName.contains("YEAR") && !typeName.contains("MONTH");
    }

    private static boolean isYearMonthInterval(String typeName) {
        return typeName.startsWith("INTERVAL") && (typeName.contains("YEAR") || typeName.contains("MONTH"));
    }

    /** A year-month interval's value, which Calcite's driver gives as a number of months. */
    private static Object months(Object value) {
        return value instanceof Number months ? new PostgresInterval(months.intValue(), 0) : value;
    }

    private static SqlType sqlType(int jdbcType) {
        return switch (jdbcType) {
            case Types.BOOLEAN, Types.BIT -> SqlType.BOOLEAN;
            case Types.TINYINT, Types.SMALLINT -> SqlType.SMALLINT;
            case Types.INTEGER -> SqlType.INTEGER;
            case Types.BIGINT -> SqlType.BIGINT;
            case Types.REAL, Types.FLOAT -> SqlType.REAL;
            case Types.DOUBLE -> SqlType.DOUBLE;
            case Types.DECIMAL, Types.NUMERIC -> SqlType.DECIMAL;
            case Types.DATE -> SqlType.DATE;
            case Types.TIME -> SqlType.TIME;
            case Types.TIMESTAMP -> SqlType.TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE -> SqlType.TIMESTAMPTZ;
            case Types.BINARY, Types.VARBINARY -> SqlType.BYTEA;
            default -> SqlType.VARCHAR;
        };
    }

    private static RuntimeException translate(String sql, SQLException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof CompileException compileError) {
                return compileError;
            }
            if (cause instanceof SqlError sqlError) {
                // An error of the rows a scan read (a view moving away, a cancelled read), wrapped by Calcite's driver.
                return sqlError;
            }
            if (cause instanceof SqlParseException) {
                try {
                    SqlStatementParser.parse(sql);
                } catch (CompileException parseError) {
                    return parseError;
                }
            }
            if (cause instanceof CalciteContextException context) {
                return CalciteErrors.translate(context, sql);
            }
        }
        String message = rootMessage(e);
        if (message.contains("Code grows beyond 64 KB")) {
            // Janino's limit on one generated method, reached by expressions such as an IN list of thousands.
            return new CompileException(CompileException.Category.UNSUPPORTED,
                "the statement is too large to run: its expressions compile to more than 64 KB of code", 0,
                "split a long IN list into a table and join it, or run the statement in parts");
        }
        if (message.startsWith("Unable to implement")) {
            // Calcite planned an expression its executor has no code for; the plan it names means nothing to a user,
            // and what failed is only in the suppressed exceptions: both go to the log, for a report.
            LOG.warn("Calcite could not implement the plan of {}", sql, e);
            return new CompileException(CompileException.Category.UNSUPPORTED,
                "this query uses a function or operator in a form kafka-mv cannot run yet", 0,
                "write the expression another way (a cast, or another function)");
        }
        return new CompileException(CompileException.Category.TYPE, message, 0, null);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }
}
