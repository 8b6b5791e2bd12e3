package io.kafkamv.compiler.postgres;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;

import io.kafkamv.compiler.ReferencePostgres;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * {@link NumericMath} against a real PostgreSQL ({@code bin/test-postgres start}): the text of each result, so every
 * digit and the scale must be PostgreSQL's, over numbers from tiny to huge, near 1, and with many decimals.
 */
class NumericMathMatchesPostgresIT {

    private static final List<String> POSITIVE = List.of("2", "2.0", "0.5", "10", "10.25", "1.0001", "0.9999", "1",
        "0.000123", "123456789.123", "1e-10", "1e100", "3.14159265358979323846", "99999999999999999999.5", "7",
        "0.1", "1.1", "0.9", "1.05", "4e-300", "12345.678901234567890123");
    private static final List<String> EXPONENTS = List.of("0.5", "2", "-2", "3", "1.5", "-0.25", "10", "0", "2.0",
        "0.333");

    @Test
    void unaryFunctionsGiveWhatPostgresGives() throws SQLException {
        SoftAssertions softly = new SoftAssertions();
        try (Connection postgres = ReferencePostgres.connect()) {
            check(softly, postgres, "sqrt", NumericMath::sqrt);
            check(softly, postgres, "ln", NumericMath::ln);
            check(softly, postgres, "log", NumericMath::log10);
            check(softly, postgres, "exp", NumericMath::exp);
        }
        softly.assertAll();
    }

    @Test
    void powersAndLogarithmsOfTwoGiveWhatPostgresGives() throws SQLException {
        SoftAssertions softly = new SoftAssertions();
        try (Connection postgres = ReferencePostgres.connect();
             PreparedStatement power = postgres.prepareStatement("SELECT power(CAST(? AS numeric), CAST(? AS numeric))::text");
             PreparedStatement log = postgres.prepareStatement("SELECT log(CAST(? AS numeric), CAST(? AS numeric))::text")) {
            for (String base : POSITIVE.subList(0, 12)) {
                for (String exponent : EXPONENTS) {
                    compare(softly, power, "power", NumericMath::power, base, exponent);
                }
                compare(softly, log, "log", NumericMath::log, "2", base);
                compare(softly, log, "log", NumericMath::log, base, "1000");
            }
            // Far out: underflow to zero, overflow, a negative base with a huge even exponent, bases near 1.
            for (String[] pair : new String[][] {{"10", "-200000"}, {"-1", "10000000000"}, {"-1", "-2147483648"},
                {"10", "2700.5"}, {"0.5", "25000.5"}, {"1.0000001", "2000000000"}, {"-2", "3"}, {"-2", "-3"},
                {"0.9", "10000"}, {"2", "0.0001"}, {"0", "0.5"}, {"0", "0"}, {"123.456", "-7"}}) {
                compare(softly, power, "power", NumericMath::power, pair[0], pair[1]);
            }
        }
        softly.assertAll();
    }

    private static void check(SoftAssertions softly, Connection postgres, String function, UnaryOperator<BigDecimal> ours)
        throws SQLException {
        try (PreparedStatement statement = postgres.prepareStatement(
            "SELECT " + function + "(CAST(? AS numeric))::text")) {
            for (String value : POSITIVE) {
                statement.setString(1, value);
                BigDecimal argument = new BigDecimal(value);
                softly.assertThat(ours(() -> ours.apply(argument))).as("%s(%s)", function, value)
                    .isEqualTo(theirs(statement));
            }
        }
    }

    private static void compare(SoftAssertions softly, PreparedStatement statement, String function,
        BinaryOperator<BigDecimal> ours, String first, String second) throws SQLException {
        statement.setString(1, first);
        statement.setString(2, second);
        softly.assertThat(ours(() -> ours.apply(new BigDecimal(first), new BigDecimal(second))))
            .as("%s(%s, %s)", function, first, second).isEqualTo(theirs(statement));
    }

    /** The result's text, or the error's message. */
    private static String ours(java.util.function.Supplier<BigDecimal> call) {
        try {
            return call.get().toPlainString();
        } catch (RuntimeException e) {
            return "ERROR: " + e.getMessage();
        }
    }

    private static String theirs(PreparedStatement statement) throws SQLException {
        try (ResultSet result = statement.executeQuery()) {
            result.next();
            return result.getString(1);
        } catch (org.postgresql.util.PSQLException e) {
            return "ERROR: " + e.getServerErrorMessage().getMessage();
        }
    }
}
