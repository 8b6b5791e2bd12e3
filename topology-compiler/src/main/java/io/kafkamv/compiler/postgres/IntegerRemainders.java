package io.kafkamv.compiler.postgres;

import java.util.Map;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * PostgreSQL's type for a remainder ({@code %}, {@code mod}) of two integers of different widths: the wider
 * ({@code bigint % integer} is a bigint, {@code smallint % integer} an integer), where Calcite's is the divisor's. PostgreSQL has a {@code %} for each
 * width only, and widens the narrower operand to call it.
 *
 * <p>As {@link DatetimeArithmetic} does for {@code +} and {@code -}: the parser writes every {@code %} as this operator
 * ({@link #adopt}), and when the validator derives its type it becomes Calcite's own again, with the narrower operand
 * cast to the wider type. A view's stored SQL has that cast; a view stored before it re-derives the wider type, which
 * its step casts back to the type its rows were written with (a remainder is no wider than its divisor).
 */
public final class IntegerRemainders {

    private static final Map<SqlTypeName, Integer> WIDTHS =
        Map.of(SqlTypeName.TINYINT, 1, SqlTypeName.SMALLINT, 2, SqlTypeName.INTEGER, 4, SqlTypeName.BIGINT, 8);

    private static final SqlBinaryOperator PERCENT_REMAINDER = new Operator(SqlStdOperatorTable.PERCENT_REMAINDER);
    private static final SqlBinaryOperator MOD = new Operator(SqlStdOperatorTable.MOD);

    private IntegerRemainders() {
    }

    /** Makes a parsed {@code %} or {@code mod(a, b)} PostgreSQL's. */
    public static void adopt(SqlBasicCall call) {
        SqlOperator operator = call.getOperator();
        if (operator == SqlStdOperatorTable.PERCENT_REMAINDER) {
            call.setOperator(PERCENT_REMAINDER);
        } else if (call.operandCount() == 2 && (operator == SqlStdOperatorTable.MOD
            || operator instanceof SqlUnresolvedFunction && operator.getName().equalsIgnoreCase("MOD"))) {
            call.setOperator(MOD);
        }
    }

    /** Stands in for Calcite's operator from parsing until validation, which gives the call Calcite's back. */
    private static final class Operator extends SqlBinaryOperator {
        private final SqlOperator calcite;

        Operator(SqlOperator calcite) {
            super(calcite.getName(), SqlKind.MOD, SqlStdOperatorTable.PERCENT_REMAINDER.getLeftPrec(), true,
                calcite.getReturnTypeInference(), calcite.getOperandTypeInference(), calcite.getOperandTypeChecker());
            this.calcite = calcite;
        }

        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            SqlBasicCall basic = (SqlBasicCall) call;
            basic.setOperator(calcite);
            SqlTypeName left = validator.deriveType(scope, call.operand(0)).getSqlTypeName();
            SqlTypeName right = validator.deriveType(scope, call.operand(1)).getSqlTypeName();
            Integer leftWidth = WIDTHS.get(left);
            Integer rightWidth = WIDTHS.get(right);
            if (leftWidth != null && rightWidth != null && !leftWidth.equals(rightWidth)) {
                int narrower = leftWidth < rightWidth ? 0 : 1;
                basic.setOperand(narrower, cast(call.operand(narrower), leftWidth < rightWidth ? right : left));
            }
            return calcite.deriveType(validator, scope, basic);
        }

        private static SqlNode cast(SqlNode value, SqlTypeName type) {
            SqlParserPos pos = value.getParserPosition();
            return SqlStdOperatorTable.CAST.createCall(pos, value,
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(type, pos), pos));
        }
    }
}
