package io.kafkamv.service.sql;

import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.kafkamv.compiler.SqlDialect;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Runs queries as batch queries with Calcite's own executor, over the schema of what kafka-mv
 * holds. Each session gets its own connection so that a cancel stops only that session's query.
 */
public final class QueryEngine {

    static {
        try {
            Class.forName("org.apache.calcite.jdbc.Driver");
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public Connection connect() {
        try {
            return new Connection(DriverManager.getConnection("jdbc:calcite:", SqlDialect.connectionProperties()));
        } catch (SQLException e) {
            throw SqlError.internal("Cannot open the query engine: " + e.getMessage(), e);
        }
    }

    /** One session's connection to the engine. */
    public static final class Connection implements AutoCloseable {
        private final java.sql.Connection jdbc;
        private final AtomicReference<Statement> running = new AtomicReference<>();

        private Connection(java.sql.Connection jdbc) {
            this.jdbc = jdbc;
        }

        public StatementResult.Rows query(String sql) {
            try (Statement statement = jdbc.createStatement()) {
                running.set(statement);
                try (ResultSet resultSet = statement.executeQuery(sql)) {
                    return readAll(resultSet);
                }
            } catch (SQLException e) {
                throw translate(sql, e);
            } finally {
                running.set(null);
            }
        }

        void cancel() {
            Statement statement = running.get();
            if (statement != null) {
                try {
                    statement.cancel();
                } catch (SQLException ignored) {
                    // The statement finished while we tried to stop it; nothing left to cancel.
                }
            }
        }

        @Override
        public void close() {
            try {
                jdbc.close();
            } catch (SQLException ignored) {
                // Closing releases in-memory resources only; there is nothing to recover.
            }
        }
    }

    private static StatementResult.Rows readAll(ResultSet resultSet) throws SQLException {
        ResultSetMetaData meta = resultSet.getMetaData();
        int count = meta.getColumnCount();
        List<ResultColumn> columns = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            columns.add(new ResultColumn(clientName(meta.getColumnLabel(i)), sqlType(meta.getColumnType(i))));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (resultSet.next()) {
            Object[] row = new Object[count];
            for (int i = 1; i <= count; i++) {
                row[i - 1] = resultSet.getObject(i);
            }
            rows.add(Arrays.asList(row));
        }
        return new StatementResult.Rows(columns, rows);
    }

    /** Calcite names an unnamed expression {@code EXPR$0}; PostgreSQL clients expect {@code ?column?}. */
    private static String clientName(String label) {
        return label.startsWith("EXPR$") ? "?column?" : label;
    }

    static SqlType sqlType(int jdbcType) {
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

    private static SqlError translate(String sql, SQLException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SqlParseException parse) {
                return SqlError.at(SqlState.SYNTAX_ERROR, firstLine(parse.getMessage()),
                    offsetOf(sql, parse.getPos()), null);
            }
            if (cause instanceof CalciteContextException context) {
                SqlParserPos pos = new SqlParserPos(context.getPosLine(), context.getPosColumn());
                String message = context.getCause() != null ? context.getCause().getMessage() : context.getMessage();
                return SqlError.at(stateOf(message), message, offsetOf(sql, pos), null);
            }
        }
        return SqlError.internal(e.getMessage(), e);
    }

    private static SqlState stateOf(String message) {
        if (message.startsWith("Object '") && message.contains("not found")) {
            return SqlState.UNDEFINED_TABLE;
        }
        if (message.startsWith("Column '") && message.contains("not found")) {
            return SqlState.UNDEFINED_COLUMN;
        }
        return SqlState.SYNTAX_ERROR;
    }

    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** The 1-based character offset of a 1-based line and column, as PostgreSQL reports it. */
    static int offsetOf(String sql, SqlParserPos pos) {
        if (pos == null || pos.getLineNum() <= 0) {
            return 0;
        }
        int offset = 0;
        for (int line = 1; line < pos.getLineNum(); line++) {
            int newline = sql.indexOf('\n', offset);
            if (newline < 0) {
                return 0;
            }
            offset = newline + 1;
        }
        return offset + pos.getColumnNum();
    }
}
