package io.kafkamv.compiler.functions;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/** The PostgreSQL functions kafka-mv adds to Calcite's, against a real PostgreSQL ({@code bin/test-postgres start}). */
class TextFunctionsMatchPostgresTest {

    private static final List<String> TEXTS = List.of("", "ann", "naïve", "日本語", "emoji 🎉!");

    @Test
    void lengthGivesWhatPostgresGives() throws SQLException {
        SoftAssertions softly = new SoftAssertions();
        try (Connection postgres = DriverManager.getConnection(
                env("KAFKA_MV_TEST_POSTGRES_URL", "jdbc:postgresql://localhost:5432/postgres"),
                env("KAFKA_MV_TEST_POSTGRES_USER", "postgres"), env("KAFKA_MV_TEST_POSTGRES_PASSWORD", "postgres"));
             PreparedStatement length = postgres.prepareStatement("SELECT length(?)")) {
            for (String text : TEXTS) {
                length.setString(1, text);
                softly.assertThat(TextFunctions.length(text)).as("length('%s')", text)
                    .isEqualTo(Integer.valueOf(single(length)));
            }
        }
        softly.assertAll();
    }

    private static String single(PreparedStatement statement) throws SQLException {
        try (ResultSet result = statement.executeQuery()) {
            result.next();
            return result.getString(1);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
