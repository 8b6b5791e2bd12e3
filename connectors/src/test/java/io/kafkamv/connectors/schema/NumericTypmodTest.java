package io.kafkamv.connectors.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

class NumericTypmodTest {

    private final NumericTypmod money = new NumericTypmod(10, 2);

    @Test
    void roundsToTheScaleHalfAwayFromZero() {
        assertThat(money.apply(new BigDecimal("1.005")).toPlainString()).isEqualTo("1.01");
        assertThat(money.apply(new BigDecimal("-7.499")).toPlainString()).isEqualTo("-7.50");
        assertThat(money.apply(new BigDecimal("1000")).toPlainString()).isEqualTo("1000.00");
    }

    @Test
    void aValueWithTooManyDigitsBeforeThePointOverflows() {
        assertThat(money.apply(new BigDecimal("99999999.994")).toPlainString()).isEqualTo("99999999.99");
        assertThatThrownBy(() -> money.apply(new BigDecimal("99999999.995")))
            .isInstanceOf(ArithmeticException.class).hasMessage("numeric field overflow");
        assertThat(money.limit()).isEqualTo("A field with precision 10, scale 2 must round to an absolute value less than 10^8.");
    }

    @Test
    void encodesAsPostgresDoes() {
        assertThat(money.encoded()).isEqualTo(655366);
        assertThat(money).hasToString("numeric(10,2)");
    }

    @Test
    void refusesAScaleBeyondThePrecision() {
        assertThatThrownBy(() -> new NumericTypmod(2, 3)).isInstanceOf(IllegalArgumentException.class);
    }
}
