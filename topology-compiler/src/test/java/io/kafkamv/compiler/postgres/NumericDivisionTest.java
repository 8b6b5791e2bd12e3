package io.kafkamv.compiler.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

class NumericDivisionTest {

    @Test
    void aNullOperandIsANullQuotientEvenWhenTheGeneratedCodeDidNotCheck() {
        assertThat(NumericDivision.divide(null, BigDecimal.ONE)).isNull();
        assertThat(NumericDivision.divide(BigDecimal.ONE, null)).isNull();
        assertThat(NumericDivision.divide(BigDecimal.TEN, new BigDecimal(3))).hasToString("3.3333333333333333");
    }
}
