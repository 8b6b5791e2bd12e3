package io.kafkamv.connectors.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The real PostgreSQL that {@code .ci/run} starts ({@code bin/test-postgres}), for the tests of JDBC sinks here and
 * in integration-tests: settings from KAFKA_MV_TEST_POSTGRES_URL, _USER and _PASSWORD.
 */
public final class TestPostgres {

    public static final String URL = env("KAFKA_MV_TEST_POSTGRES_URL", "jdbc:postgresql://localhost:5432/postgres");
    public static final String USER = env("KAFKA_MV_TEST_POSTGRES_USER", "postgres");
    public static final String PASSWORD = env("KAFKA_MV_TEST_POSTGRES_PASSWORD", "postgres");

    private TestPostgres() {
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL, USER, PASSWORD);
    }

    public static void execute(String... statements) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
