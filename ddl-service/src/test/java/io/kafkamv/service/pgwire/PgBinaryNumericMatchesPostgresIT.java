package io.kafkamv.service.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/** Numerics in binary form as the real PostgreSQL sends and reads them ({@code numeric_send}), both ways. */
class PgBinaryNumericMatchesPostgresIT {

    private static final List<String> NUMBERS = List.of("0", "1", "-1", "1.50", "0.5", "0.0001", "0.00001", "100",
        "10000", "12345678", "-12345678.9", "123456789012345678901234567890.123456789", "0.000", "-0.25", "99999.99990");

    @Test
    void numericsHavePostgresBinaryForm() throws SQLException {
        SoftAssertions softly = new SoftAssertions();
        try (Connection postgres = DriverManager.getConnection(
                env("KAFKA_MV_TEST_POSTGRES_URL", "jdbc:postgresql://localhost:5432/postgres"),
                env("KAFKA_MV_TEST_POSTGRES_USER", "postgres"), env("KAFKA_MV_TEST_POSTGRES_PASSWORD", "postgres"));
             PreparedStatement send = postgres.prepareStatement("SELECT numeric_send(CAST(? AS numeric))")) {
            for (String number : NUMBERS) {
                send.setString(1, number);
                byte[] expected;
                try (ResultSet rs = send.executeQuery()) {
                    rs.next();
                    expected = rs.getBytes(1);
                }
                softly.assertThat(PgBinaryNumeric.encode(new BigDecimal(number))).as("encode %s", number).isEqualTo(expected);
                softly.assertThat(PgBinaryNumeric.decode(ByteBuffer.wrap(expected)).toPlainString()).as("decode %s", number)
                    .isEqualTo(number);
            }
        }
        softly.assertAll();
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
