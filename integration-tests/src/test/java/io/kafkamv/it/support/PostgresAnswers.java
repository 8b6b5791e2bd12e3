package io.kafkamv.it.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Answers read as text through pgjdbc, to compare kafka-mv's with the real PostgreSQL's that
 * {@code .ci/run} starts ({@code KAFKA_MV_TEST_POSTGRES_URL}, {@code _USER}, {@code _PASSWORD}).
 */
public final class PostgresAnswers {

    private PostgresAnswers() {
    }

    /** The real PostgreSQL's JDBC URL. */
    public static String url() {
        return env("KAFKA_MV_TEST_POSTGRES_URL", "jdbc:postgresql://localhost:5432/postgres");
    }

    public static String user() {
        return env("KAFKA_MV_TEST_POSTGRES_USER", "postgres");
    }

    public static String password() {
        return env("KAFKA_MV_TEST_POSTGRES_PASSWORD", "postgres");
    }

    /** A session of the real PostgreSQL, at UTC, as every kafka-mv session is. */
    public static Connection postgres() throws SQLException {
        Connection connection = DriverManager.getConnection(url(), user(), password());
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET TIME ZONE 'UTC'");
        }
        return connection;
    }

    /** The query's rows, each value as the text the server sent. */
    public static List<List<String>> rows(Connection connection, String query) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(query)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The SQLSTATE the statement fails with, or null if it does not. */
    public static String sqlState(Connection connection, String sql) {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
            return null;
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
