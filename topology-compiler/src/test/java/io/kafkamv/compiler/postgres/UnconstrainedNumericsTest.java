package io.kafkamv.compiler.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;

import io.kafkamv.compiler.types.InvalidInputException;
import org.junit.jupiter.api.Test;

/** The values PostgreSQL 15 prints for the same casts to numeric (checked with psql against it). */
class UnconstrainedNumericsTest {

    @Test
    void aNumericKeepsItsDigits() {
        assertThat(UnconstrainedNumerics.toNumeric(new BigDecimal("1.50")).toPlainString()).isEqualTo("1.50");
    }

    @Test
    void aDoubleBecomesItsFifteenSignificantDigits() {
        assertThat(UnconstrainedNumerics.toNumeric(1.1 + 2.2 + 3.3).toPlainString()).isEqualTo("6.6");
        assertThat(UnconstrainedNumerics.toNumeric(1e20).toPlainString()).isEqualTo("100000000000000000000");
        assertThat(UnconstrainedNumerics.toNumeric(1e-20).toPlainString()).isEqualTo("0.00000000000000000001");
        assertThat(UnconstrainedNumerics.toNumeric(100.0).toPlainString()).isEqualTo("100");
    }

    @Test
    void aRealBecomesItsSixSignificantDigits() {
        assertThat(UnconstrainedNumerics.toNumeric(123456789.123f).toPlainString()).isEqualTo("123457000");
        assertThat(UnconstrainedNumerics.toNumeric(0.1f).toPlainString()).isEqualTo("0.1");
    }

    @Test
    void integersAndTextConvertExactly() {
        assertThat(UnconstrainedNumerics.toNumeric(42L).toPlainString()).isEqualTo("42");
        assertThat(UnconstrainedNumerics.toNumeric(" 2.250 ").toPlainString()).isEqualTo("2.250");
        assertThatThrownBy(() -> UnconstrainedNumerics.toNumeric("x"))
            .isInstanceOf(InvalidInputException.class)
            .hasMessage("invalid input syntax for type numeric: \"x\"");
    }

    @Test
    void infinityIsNoNumeric() {
        assertThatThrownBy(() -> UnconstrainedNumerics.toNumeric(Double.POSITIVE_INFINITY))
            .isInstanceOf(InvalidInputException.class);
    }
}
