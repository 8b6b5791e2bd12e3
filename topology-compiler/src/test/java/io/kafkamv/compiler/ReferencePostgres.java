package io.kafkamv.compiler;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The real PostgreSQL the compiler's functions and formats are checked against ({@code bin/test-postgres start},
 * which {@code .ci/run} runs); settings from KAFKA_MV_TEST_POSTGRES_URL, _USER and _PASSWORD.
 */
public final class ReferencePostgres {

    private ReferencePostgres() {
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(env("KAFKA_MV_TEST_POSTGRES_URL", "jdbc:postgresql://localhost:5432/postgres"),
            env("KAFKA_MV_TEST_POSTGRES_USER", "postgres"), env("KAFKA_MV_TEST_POSTGRES_PASSWORD", "postgres"));
    }

    /** The text of the one value {@code sql} gives with {@code parameter} as its one parameter. */
    public static String value(Connection postgres, String sql, String parameter) throws SQLException {
        try (PreparedStatement statement = postgres.prepareStatement(sql)) {
            statement.setString(1, parameter);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getString(1);
            }
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
