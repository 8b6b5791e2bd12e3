package io.kafkamv.compiler.postgres;


import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlMonotonicBinaryOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * PostgreSQL's {@code +} and {@code -} on dates, times and timestamps, where Calcite's operators refuse the types or
 * answer otherwise: {@code timestamp - timestamp} and {@code time - time} are intervals, {@code date - date} an
 * integer (days), {@code date ± integer} a date, and {@code date ± interval '...'} a timestamp, of days or months (Calcite's is a date,
 * which drops the hours; SQL's whole-days {@code date + INTERVAL '1' DAY} stays a date).
 *
 * <p>The parser writes every {@code +} and {@code -} as one of these operators ({@link #adopt}). When the validator
 * derives a call's type, knowing its operands' types, the call becomes Calcite's own operator again, over operands
 * in Calcite's forms ({@code (a - b) DAY TO SECOND}, {@code n * INTERVAL '1' DAY}, a cast), so nothing after
 * validation (planning, code generation, the stored SQL of a view) ever sees them.
 */
public final class DatetimeArithmetic {

    public static final SqlBinaryOperator PLUS = new Operator(SqlStdOperatorTable.PLUS);

    public static final SqlBinaryOperator MINUS = new Operator(SqlStdOperatorTable.MINUS);

    /**
     * The function {@code date - date} becomes (its days, an integer): Calcite's own form, a day interval cast to an
     * integer, turns into an internal operator that no view's stored SQL can be written with.
     */
    public static final String DATE_DIFFERENCE = "kafka_mv_date_difference";

    /** Interval precisions wide enough for any two timestamps: kafka-mv keeps milliseconds. */
    private static final int DAYS_PRECISION = 9;
    private static final int SECONDS_PRECISION = 3;

    private DatetimeArithmetic() {
    }

    /** Makes a parsed {@code +} or {@code -} PostgreSQL's. */
    public static void adopt(SqlBasicCall call) {
        if (call.getOperator() == SqlStdOperatorTable.PLUS) {
            call.setOperator(PLUS);
        } else if (call.getOperator() == SqlStdOperatorTable.MINUS) {
            call.setOperator(MINUS);
        }
    }

    private static final class Operator extends SqlMonotonicBinaryOperator {
        private final SqlBinaryOperator calcite;

        Operator(SqlBinaryOperator calcite) {
            super(calcite.getName(), calcite.getKind(), calcite.getLeftPrec(), true, calcite.getReturnTypeInference(),
                calcite.getOperandTypeInference(), calcite.getOperandTypeChecker());
            this.calcite = calcite;
        }

        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            SqlBasicCall basic = (SqlBasicCall) call;
            SqlTypeName left = validator.deriveType(scope, call.operand(0)).getSqlTypeName();
            SqlTypeName right = validator.deriveType(scope, call.operand(1)).getSqlTypeName();
            basic.setOperator(calcite);
            SqlParserPos pos = call.getParserPosition();
            boolean minus = getKind() == SqlKind.MINUS;
            if (minus && (isTimestamp(left) && isTimestamp(right) || left == SqlTypeName.TIME && right == SqlTypeName.TIME)) {
                SqlIntervalQualifier dayToSecond = new SqlIntervalQualifier(TimeUnit.DAY, DAYS_PRECISION, TimeUnit.SECOND,
                    SECONDS_PRECISION, pos);
                becomeCast(basic, difference(basic, dayToSecond), dayToSecond);
            } else if (minus && left == SqlTypeName.DATE && right == SqlTypeName.DATE) {
                basic.setOperator(new SqlUnresolvedFunction(new SqlIdentifier(DATE_DIFFERENCE, pos), null,
                    null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION));
            } else if (left == SqlTypeName.DATE && isWholeNumber(right)) {
                basic.setOperand(1, days(call.operand(1)));
            } else if (!minus && isWholeNumber(left) && right == SqlTypeName.DATE) {
                basic.setOperand(0, days(call.operand(0)));
            } else if (left == SqlTypeName.DATE && isPostgresInterval(right)) {
                basic.setOperand(0, timestamp(call.operand(0)));
            } else if (!minus && isPostgresInterval(left) && right == SqlTypeName.DATE) {
                basic.setOperand(1, timestamp(call.operand(1)));
            }
            return basic.getOperator().deriveType(validator, scope, basic);
        }

        /** {@code (a - b) unit}: Calcite's datetime difference. */
        private static SqlNode difference(SqlCall call, SqlIntervalQualifier unit) {
            return SqlStdOperatorTable.MINUS_DATE.createCall(call.getParserPosition(), call.operand(0), call.operand(1), unit);
        }

        private static void becomeCast(SqlBasicCall call, SqlNode value, SqlNode type) {
            call.setOperator(SqlStdOperatorTable.CAST);
            call.setOperand(0, value);
            call.setOperand(1, type);
        }

        /** {@code n * INTERVAL '1' DAY}: PostgreSQL adds a whole number to a date as days. */
        private static SqlNode days(SqlNode number) {
            SqlParserPos pos = number.getParserPosition();
            return SqlStdOperatorTable.MULTIPLY.createCall(pos, number, SqlLiteral.createInterval(1, "1",
                new SqlIntervalQualifier(TimeUnit.DAY, DAYS_PRECISION, null, -1, pos), pos));
        }

        private static SqlNode timestamp(SqlNode date) {
            SqlParserPos pos = date.getParserPosition();
            return SqlStdOperatorTable.CAST.createCall(pos, date,
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, SECONDS_PRECISION, pos), pos));
        }

        private static boolean isTimestamp(SqlTypeName type) {
            return type == SqlTypeName.TIMESTAMP || type == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
        }

        private static boolean isWholeNumber(SqlTypeName type) {
            return type == SqlTypeName.INTEGER || type == SqlTypeName.SMALLINT || type == SqlTypeName.TINYINT
                || type == SqlTypeName.BIGINT;
        }

        /**
         * An interval of months or of hours, minutes or seconds, as PostgreSQL's interval literals are here
         * ({@code interval '1 day'} is a DAY TO SECOND, {@code interval '1 month'} a MONTH). A whole-days
         * {@code INTERVAL '1' DAY} is not: it is what a date plus a whole number is written as in a view's stored SQL,
         * which must read back as a date.
         */
        private static boolean isPostgresInterval(SqlTypeName type) {
            return type.getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME && type != SqlTypeName.INTERVAL_DAY
                || type.getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
        }
    }
}
