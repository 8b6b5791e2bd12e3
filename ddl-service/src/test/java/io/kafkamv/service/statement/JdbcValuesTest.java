package io.kafkamv.service.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.service.error.SqlError;
import org.junit.jupiter.api.Test;

class JdbcValuesTest {

    @Test
    void integersOfEveryBoxedTypeFitTheirColumnOrAreOutOfRange() {
        assertThat(JdbcValues.toColumn(7L, Column.of("i", SqlType.INTEGER), "t")).isEqualTo(7);
        assertThat(JdbcValues.toColumn((short) 7, Column.of("b", SqlType.BIGINT), "t")).isEqualTo(7L);
        assertThat(JdbcValues.toColumn(Integer.MIN_VALUE, Column.of("i", SqlType.INTEGER), "t")).isEqualTo(Integer.MIN_VALUE);
        assertThat(JdbcValues.toColumn(Long.MAX_VALUE, Column.of("b", SqlType.BIGINT), "t")).isEqualTo(Long.MAX_VALUE);
        assertOutOfRange(2_147_483_648L, SqlType.INTEGER, "integer out of range");
        assertOutOfRange(-32_769, SqlType.SMALLINT, "smallint out of range");
    }

    @Test
    void decimalsAndTextTakeTheExactWay() {
        assertThat(JdbcValues.toColumn(new BigDecimal("42"), Column.of("i", SqlType.INTEGER), "t")).isEqualTo(42);
        assertThat(JdbcValues.toColumn(" 42 ", Column.of("b", SqlType.BIGINT), "t")).isEqualTo(42L);
        assertOutOfRange(new BigDecimal("9223372036854775808"), SqlType.BIGINT, "bigint out of range");
    }

    @Test
    void numbersOfHugeExponentsAreRefusedOrRoundedWithoutBeingWrittenOut() {
        assertThat(JdbcValues.toColumn(new BigDecimal("1E-300000000"), Column.of("i", SqlType.INTEGER), "t")).isEqualTo(0);
        assertThat(JdbcValues.toColumn(new BigDecimal("0.5"), Column.of("i", SqlType.INTEGER), "t")).isEqualTo(1);
        assertThat(JdbcValues.toColumn(new BigDecimal("-2.5"), Column.of("i", SqlType.INTEGER), "t")).isEqualTo(-3);
        assertThat(JdbcValues.toColumn(2.5, Column.of("i", SqlType.INTEGER), "t")).isEqualTo(2);
        assertOutOfRange(new BigDecimal("1E+300000000"), SqlType.BIGINT, "bigint out of range");
        SqlError overflow = catchThrowableOfType(SqlError.class,
            () -> JdbcValues.toColumn("1e300000000", Column.of("n", SqlType.DECIMAL), "t"));
        assertThat(overflow).hasMessage("value overflows numeric format");
    }

    private static void assertOutOfRange(Object value, SqlType type, String message) {
        SqlError error = catchThrowableOfType(SqlError.class, () -> JdbcValues.toColumn(value, Column.of("c", type), "t"));
        assertThat(error).hasMessage(message);
        assertThat(error.state().code()).isEqualTo("22003");
    }
}
