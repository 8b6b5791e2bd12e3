package io.kafkamv.compiler.postgres;

import java.math.BigDecimal;
import java.util.List;

import io.kafkamv.compiler.types.PostgresNumeric;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * Numeric division with PostgreSQL's digits ({@link PostgresNumeric#divide}): Calcite's executor divides numerics
 * to 16 significant digits, so {@code 10::numeric / 3} was 3.333333333333333 where PostgreSQL prints
 * 3.3333333333333333. Every division with a numeric result calls it; integer operands are made numerics.
 */
public final class NumericDivision extends RexShuttle {

    private static final SqlUserDefinedFunction DIVIDE =
        JavaFunctions.operator("numeric_divide", NumericDivision.class, "divide");

    private final RexBuilder rex;

    public NumericDivision(RexBuilder rex) {
        this.rex = rex;
    }

    /**
     * Called by the generated code; public for that. Null in, null out, as for any operator: checked here too,
     * since a plan Calcite sometimes picks types the call not null (CI saw {@code sum(y) / count(y)} of a group
     * whose y are all NULL reach here with a null).
     */
    @Strict
    public static BigDecimal divide(BigDecimal dividend, BigDecimal divisor) {
        if (dividend == null || divisor == null) {
            return null;
        }
        return PostgresNumeric.divide(dividend, divisor);
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexNode visited = super.visitCall(call);
        if (!(visited instanceof RexCall division) || division.getOperator() != SqlStdOperatorTable.DIVIDE
            || division.getType().getSqlTypeName() != SqlTypeName.DECIMAL) {
            return visited;
        }
        return divide(rex, division.getType(), division.getOperands().get(0), division.getOperands().get(1));
    }

    /** {@code dividend / divisor} with PostgreSQL's digits, typed {@code type}; integer operands are made numerics. */
    public static RexNode divide(RexBuilder rex, RelDataType type, RexNode dividend, RexNode divisor) {
        return rex.makeCall(type, DIVIDE, List.of(asDecimal(rex, dividend), asDecimal(rex, divisor)));
    }

    /** The operand as a numeric: itself if it is one, else cast to the numeric that holds its values. */
    public static RexNode asDecimal(RexBuilder rex, RexNode operand) {
        RelDataType type = operand.getType();
        if (type.getSqlTypeName() == SqlTypeName.DECIMAL) {
            return operand;
        }
        RelDataType decimal = rex.getTypeFactory().decimalOf(type);
        return rex.makeCast(rex.getTypeFactory().createTypeWithNullability(decimal, type.isNullable()), operand);
    }
}
