package io.kafkamv.compiler.postgres;

import java.util.List;
import java.util.Set;

import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Integer arithmetic (and {@code abs}) that fails when it overflows, as PostgreSQL's does
 * ({@code bigint out of range}), instead of Java's, which wraps around to a wrong number. Only integer results change: a numeric has
 * no fixed range here, and floats follow IEEE 754 in both. Calcite's own {@code ConvertToChecked} is
 * not used because it also casts every numeric result back to its declared scale, which would undo
 * PostgreSQL's digits for numeric division.
 */
public final class CheckedIntegerArithmetic extends RexShuttle {

    private static final Set<SqlTypeName> INTEGERS =
        Set.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT);

    private final RexBuilder rexBuilder;

    public CheckedIntegerArithmetic(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexNode visited = super.visitCall(call);
        if (!(visited instanceof RexCall arithmetic) || !INTEGERS.contains(arithmetic.getType().getSqlTypeName())) {
            return visited;
        }
        if (arithmetic.getOperator() == SqlStdOperatorTable.ABS) {
            // abs(x) is x or -x, and -x of the least integer overflows.
            RexNode operand = arithmetic.getOperands().get(0);
            return rexBuilder.makeCall(arithmetic.getType(), SqlStdOperatorTable.CASE, List.of(
                rexBuilder.makeCall(SqlStdOperatorTable.LESS_THAN, operand, rexBuilder.makeZeroLiteral(operand.getType())),
                rexBuilder.makeCall(arithmetic.getType(), SqlStdOperatorTable.CHECKED_UNARY_MINUS, List.of(operand)),
                operand));
        }
        SqlOperator checked = switch (arithmetic.getKind()) {
            case PLUS -> SqlStdOperatorTable.CHECKED_PLUS;
            case MINUS -> SqlStdOperatorTable.CHECKED_MINUS;
            case TIMES -> SqlStdOperatorTable.CHECKED_MULTIPLY;
            case DIVIDE -> SqlStdOperatorTable.CHECKED_DIVIDE;
            case MINUS_PREFIX -> SqlStdOperatorTable.CHECKED_UNARY_MINUS;
            default -> null;
        };
        return checked == null ? visited : rexBuilder.makeCall(arithmetic.getType(), checked, arithmetic.getOperands());
    }
}
