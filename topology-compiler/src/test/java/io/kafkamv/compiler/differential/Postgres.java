package io.kafkamv.compiler.differential;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The real PostgreSQL that {@code .ci/run} starts: the reference the views are compared with.
 * Settings come from KAFKA_MV_TEST_POSTGRES_URL, _USER and _PASSWORD.
 */
final class Postgres implements AutoCloseable {

    private final Connection connection;

    Postgres() throws SQLException {
        String url = env("KAFKA_MV_TEST_POSTGRES_URL", "jdbc:postgresql://localhost:5432/postgres");
        try {
            connection = DriverManager.getConnection(url, env("KAFKA_MV_TEST_POSTGRES_USER", "postgres"),
                env("KAFKA_MV_TEST_POSTGRES_PASSWORD", "postgres"));
        } catch (SQLException e) {
            throw new SQLException("The differential test needs PostgreSQL at " + url
                + " (.ci/run installs and starts it): " + e.getMessage(), e);
        }
    }

    void resetTables() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (Change.Table table : Change.Table.values()) {
                statement.execute("DROP TABLE IF EXISTS " + table.name);
                statement.execute("CREATE TABLE " + table.name + " (" + table.columns + ")");
            }
        }
    }

    void apply(Change change) throws SQLException {
        Change.Table table = change.table();
        if (change.delete()) {
            try (PreparedStatement delete = connection.prepareStatement(
                "DELETE FROM " + table.name + " WHERE " + table.key + " = ?")) {
                delete.setObject(1, change.key());
                delete.executeUpdate();
            }
            return;
        }
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO " + table.name
            + " VALUES (?, ?, ?) ON CONFLICT (" + table.key + ") DO UPDATE SET " + table.first + " = EXCLUDED."
            + table.first + ", " + table.second + " = EXCLUDED." + table.second)) {
            upsert.setObject(1, change.key());
            upsert.setObject(2, toJdbc(change.first(), table.firstType), table.firstType);
            upsert.setObject(3, toJdbc(change.second(), table.secondType), table.secondType);
            upsert.executeUpdate();
        }
    }

    /** Our timestamps are milliseconds since the epoch; PostgreSQL's {@code timestamp} is the same instant's UTC wall clock. */
    private static Object toJdbc(Object value, int type) {
        return type == Types.TIMESTAMP && value != null
            ? LocalDateTime.ofInstant(Instant.ofEpochMilli((Long) value), ZoneOffset.UTC) : value;
    }

    /** PostgreSQL's quotient of two numerics, with the digits it prints. */
    String divide(java.math.BigDecimal dividend, java.math.BigDecimal divisor) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT ?::numeric / ?::numeric")) {
            query.setBigDecimal(1, dividend);
            query.setBigDecimal(2, divisor);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getBigDecimal(1).toPlainString();
            }
        }
    }

    /** The query's rows, each value normalized for comparison. */
    List<List<String>> rows(String query) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(query)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(normalize(rs.getObject(i)));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** Numbers compare by value to ten decimal places; PostgreSQL's and ours differ in scale, not value. */
    static String normalize(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Timestamp timestamp) {
            return normalize(timestamp.toLocalDateTime().toInstant(ZoneOffset.UTC).toEpochMilli());
        }
        if (value instanceof Number number) {
            BigDecimal decimal = new BigDecimal(number.toString()).setScale(10, java.math.RoundingMode.HALF_EVEN);
            return decimal.stripTrailingZeros().toPlainString();
        }
        return value.toString();
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
