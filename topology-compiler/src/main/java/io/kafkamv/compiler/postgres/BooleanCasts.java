package io.kafkamv.compiler.postgres;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlCastFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.util.Static;

/**
 * PostgreSQL's casts between booleans and integers, which Calcite's cast refuses: {@code true::int} is 1,
 * {@code false::int} 0, and an {@code integer} cast to a boolean is whether it is not 0. PostgreSQL casts only
 * {@code integer} and {@code boolean} to each other, not {@code bigint}, {@code smallint} or {@code numeric}, and
 * neither does this (Calcite would cast a bigint to a boolean).
 *
 * <p>The parser writes a cast of an expression to an integer or boolean type with {@link #CAST}. When the validator
 * derives the cast's type, knowing its operand's, the cast becomes Calcite's again, over an operand Calcite can cast
 * ({@code CASE WHEN b THEN 1 WHEN NOT b THEN 0 END}, {@code i <> 0}), so nothing after validation sees it.
 */
public final class BooleanCasts {

    public static final SqlCastFunction CAST = new Cast();

    private BooleanCasts() {
    }

    private static final class Cast extends SqlCastFunction {

        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            SqlBasicCall cast = (SqlBasicCall) call;
            cast.setOperator(SqlStdOperatorTable.CAST);
            RelDataType fromType = validator.deriveType(scope, call.operand(0));
            RelDataType toType = validator.deriveType(scope, call.operand(1));
            SqlTypeName from = fromType.getSqlTypeName();
            SqlTypeName to = toType.getSqlTypeName();
            SqlNode value = call.operand(0);
            SqlParserPos pos = value.getParserPosition();
            if (from == SqlTypeName.BOOLEAN && to == SqlTypeName.INTEGER) {
                cast.setOperand(0, new SqlCase(pos, null,
                    SqlNodeList.of(value, SqlStdOperatorTable.NOT.createCall(pos, value)),
                    SqlNodeList.of(SqlLiteral.createExactNumeric("1", pos), SqlLiteral.createExactNumeric("0", pos)),
                    SqlLiteral.createNull(pos)));
            } else if (from == SqlTypeName.INTEGER && to == SqlTypeName.BOOLEAN) {
                cast.setOperand(0, SqlStdOperatorTable.NOT_EQUALS.createCall(pos, value,
                    SqlLiteral.createExactNumeric("0", pos)));
            } else if (from == SqlTypeName.BOOLEAN && SqlTypeName.INT_TYPES.contains(to)
                || SqlTypeName.NUMERIC_TYPES.contains(from) && to == SqlTypeName.BOOLEAN) {
                throw validator.newValidationError(call, Static.RESOURCE.cannotCastValue(TypeNames.name(fromType),
                    TypeNames.name(toType)));
            }
            return cast.getOperator().deriveType(validator, scope, cast);
        }
    }
}
