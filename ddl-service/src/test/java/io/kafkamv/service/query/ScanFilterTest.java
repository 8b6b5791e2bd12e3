package io.kafkamv.service.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Optional;

import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

class ScanFilterTest {

    private final RelDataTypeFactory types = new JavaTypeFactoryImpl();
    private final RexBuilder rex = new RexBuilder(types);
    /** id BIGINT, g INTEGER, price DECIMAL(10, 2), name VARCHAR, all nullable. */
    private final RelDataType row = types.builder()
        .add("id", types.createTypeWithNullability(types.createSqlType(SqlTypeName.BIGINT), true))
        .add("g", types.createTypeWithNullability(types.createSqlType(SqlTypeName.INTEGER), true))
        .add("price", types.createTypeWithNullability(types.createSqlType(SqlTypeName.DECIMAL, 10, 2), true))
        .add("name", types.createTypeWithNullability(types.createSqlType(SqlTypeName.VARCHAR), true))
        .build();

    private RexNode column(int index) {
        return rex.makeInputRef(row.getFieldList().get(index).getType(), index);
    }

    private RexNode number(String value) {
        return rex.makeExactLiteral(new BigDecimal(value));
    }

    private ScanFilter filter(RexNode condition) {
        return ScanFilter.of(condition, row).orElseThrow();
    }

    @Test
    void aRowPassesOnlyWhenEveryComparisonItKnowsHolds() {
        ScanFilter filter = filter(rex.makeCall(SqlStdOperatorTable.AND,
            rex.makeCall(SqlStdOperatorTable.EQUALS, column(1), number("7")),
            rex.makeCall(SqlStdOperatorTable.LESS_THAN, number("10"), column(0)),
            rex.makeCall(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, column(2), number("1.25")),
            // Text comparisons are left to the query's filter: this conjunct never leaves a row out.
            rex.makeCall(SqlStdOperatorTable.EQUALS, column(3), rex.makeLiteral("x"))));

        assertThat(filter.test(new Object[] {11L, 7, new BigDecimal("1.25"), "y"})).isTrue();
        assertThat(filter.test(new Object[] {10L, 7, new BigDecimal("1.25"), "y"})).as("10 < id").isFalse();
        assertThat(filter.test(new Object[] {11L, 8, new BigDecimal("1.25"), "y"})).as("g = 7").isFalse();
        assertThat(filter.test(new Object[] {11L, 7, new BigDecimal("1.24"), "y"})).as("price >= 1.25").isFalse();
        assertThat(filter.test(new Object[] {11L, null, new BigDecimal("2"), "y"})).as("null = 7 is null").isFalse();
    }

    @Test
    void nullTestsAndFractionsAgainstWholeColumnsAreExact() {
        assertThat(filter(rex.makeCall(SqlStdOperatorTable.IS_NULL, column(1))).test(new Object[] {1L, null, null, null}))
            .isTrue();
        assertThat(filter(rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, column(1))).test(new Object[] {1L, null, null, null}))
            .isFalse();
        ScanFilter belowAHalf = filter(rex.makeCall(SqlStdOperatorTable.LESS_THAN, column(0), number("2.5")));
        assertThat(belowAHalf.test(new Object[] {2L, null, null, null})).isTrue();
        assertThat(belowAHalf.test(new Object[] {3L, null, null, null})).isFalse();
        ScanFilter beyondALong = filter(rex.makeCall(SqlStdOperatorTable.NOT_EQUALS, column(0), number("9223372036854775808")));
        assertThat(beyondALong.test(new Object[] {Long.MAX_VALUE, null, null, null})).isTrue();
    }

    @Test
    void conditionsItDoesNotKnowGiveNoFilterAndAMovedFilterReadsItsFieldsElsewhere() {
        assertThat(ScanFilter.of(rex.makeCall(SqlStdOperatorTable.OR,
            rex.makeCall(SqlStdOperatorTable.EQUALS, column(1), number("7")),
            rex.makeCall(SqlStdOperatorTable.EQUALS, column(1), number("8"))), row)).isEqualTo(Optional.empty());
        assertThat(ScanFilter.of(rex.makeCall(SqlStdOperatorTable.IS_DISTINCT_FROM, column(1), number("7")), row))
            .isEqualTo(Optional.empty());

        ScanFilter moved = filter(rex.makeCall(SqlStdOperatorTable.EQUALS, column(1), number("7"))).moved(field -> 0);
        assertThat(moved.test(new Object[] {7})).isTrue();
        assertThat(moved.test(new Object[] {8})).isFalse();
    }
}
