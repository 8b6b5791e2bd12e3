package io.kafkamv.compiler.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

import io.kafkamv.compiler.ReferencePostgres;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/** Floats in text format as a real PostgreSQL writes them (the one {@code bin/test-postgres start} runs). */
class PostgresTextOutputMatchesPostgresIT {

    // 2.82879384806159E17, 4.9e-324 and 1e23: Java 17's Double.toString gives more digits than the shortest
    private static final List<Double> DOUBLES = List.of(117.0, 1.5, 0.1, 1e15, 1e16, 123456789012345.0, 1e-4, 1e-5,
        1.5e-7, -2.5, 0.0, -0.0, 1.0 / 3, 9007199254740992.0, Double.MAX_VALUE, 2.5e-300, Double.NaN,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 99999.99, -123.456e20, 2.82879384806159E17, 4.9e-324, 1.0E23);
    private static final List<Float> FLOATS = List.of(1.5f, 100000f, 1000000f, 1e7f, 123456.7f, 1e-4f, 1e-5f, 3.4e38f,
        0.1f, -7.25f);

    @Test
    void floatsAreWrittenAsPostgresWritesThem() throws SQLException {
        SoftAssertions softly = new SoftAssertions();
        try (Connection postgres = ReferencePostgres.connect()) {
            for (double value : DOUBLES) {
                softly.assertThat(PostgresTextOutput.format(value)).as("float8 %s", value)
                    .isEqualTo(ReferencePostgres.value(postgres, "SELECT CAST(CAST(? AS text) AS float8)::text", Double.toString(value)));
            }
            for (float value : FLOATS) {
                softly.assertThat(PostgresTextOutput.format(value)).as("float4 %s", value)
                    .isEqualTo(ReferencePostgres.value(postgres, "SELECT CAST(CAST(? AS text) AS float4)::text", Float.toString(value)));
            }
        }
        softly.assertAll();
    }

    @Test
    void arraysAreWrittenAsPostgresWritesThem() throws SQLException {
        try (Connection postgres = ReferencePostgres.connect()) {
            assertThat(PostgresTextOutput.format(Arrays.asList(
                    "a", "b c", "", null, "x\"y", "NULL", "back\\slash", "{}", "1,2")))
                .isEqualTo(ReferencePostgres.value(postgres, "SELECT (ARRAY['a', 'b c', '', NULL, 'x\"y', 'NULL', 'back\\slash', '{}', '1,2', ?])"
                    + "[1:9]::text", "unused"));
            assertThat(PostgresTextOutput.format(Arrays.asList(1, null, -2)))
                .isEqualTo(ReferencePostgres.value(postgres, "SELECT (ARRAY[1, NULL, -2, length(?)])[1:3]::text", "x"));
            assertThat(PostgresTextOutput.format(List.of(1.5, 0.1)))
                .isEqualTo(ReferencePostgres.value(postgres, "SELECT (ARRAY[1.5::float8, 0.1, length(?)])[1:2]::text", "x"));
        }
    }
}
