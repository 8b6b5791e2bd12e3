package io.kafkamv.compiler.postgres;

import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.types.PostgresMathException.Reason;
import io.kafkamv.compiler.types.PostgresMathException;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * {@code sqrt}, {@code ln}, {@code log10}, {@code power} and {@code exp} of doubles fail where PostgreSQL's do,
 * with its words, instead of giving NaN or Infinity (Calcite's, from Java's Math) or an internal error:
 * {@code sqrt(-1)} is "cannot take square root of a negative number", {@code ln(0)} "cannot take logarithm of
 * zero", {@code exp(1000)} "value out of range: overflow". And {@code round} of a double rounds half to even, as
 * PostgreSQL's (the C library's {@code rint}): {@code round(2.5::float8)} is 2, where Calcite said 3. Those of numerics
 * that {@link NumericMath} typed as numerics are computed there.
 */
public final class CheckedMath extends RexShuttle {

    private static final Map<SqlOperator, SqlUserDefinedFunction> CHECKED = Map.of(
        SqlStdOperatorTable.SQRT, checked("sqrt"),
        NumericMath.Sqrt.INSTANCE, checked("sqrt"),
        SqlStdOperatorTable.LN, checked("ln"),
        SqlStdOperatorTable.LOG10, checked("log10"),
        SqlStdOperatorTable.POWER, checked("power"),
        SqlStdOperatorTable.EXP, checked("exp"),
        SqlLibraryOperators.LOG_POSTGRES, checked("log10"),
        SqlStdOperatorTable.ROUND, checked("round"));

    private static final SqlUserDefinedFunction NUMERIC_SQRT = JavaFunctions.operator("sqrt", NumericMath.class, "sqrt");
    private static final SqlUserDefinedFunction NUMERIC_EXP = JavaFunctions.operator("exp", NumericMath.class, "exp");
    private static final SqlUserDefinedFunction NUMERIC_LN = JavaFunctions.operator("ln", NumericMath.class, "ln");
    private static final SqlUserDefinedFunction NUMERIC_LOG10 = JavaFunctions.operator("log", NumericMath.class, "log10");
    private static final SqlUserDefinedFunction NUMERIC_LOG = JavaFunctions.operator("log", NumericMath.class, "log");
    private static final SqlUserDefinedFunction NUMERIC_POWER = JavaFunctions.operator("power", NumericMath.class, "power");

    private final RexBuilder rexBuilder;

    private static SqlUserDefinedFunction checked(String method) {
        return JavaFunctions.operator(method, CheckedMath.class, method);
    }

    public CheckedMath(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexNode visited = super.visitCall(call);
        if (visited instanceof RexCall math && math.getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
            SqlUserDefinedFunction numeric = numericFunction(math);
            if (numeric != null) {
                // Integers and doubles become numerics as PostgreSQL casts them; a numeric stays as it is.
                return rexBuilder.makeCall(math.getType(), numeric, math.getOperands().stream()
                    .map(operand -> operand.getType().getSqlTypeName() == SqlTypeName.DECIMAL ? operand
                        : NumericDivision.asDecimal(rexBuilder, operand))
                    .toList());
            }
        }
        if (!(visited instanceof RexCall math) || !CHECKED.containsKey(math.getOperator())
            || math.getType().getSqlTypeName() != SqlTypeName.DOUBLE
            || math.getOperator() == SqlStdOperatorTable.ROUND && math.getOperands().size() != 1) {
            return visited;
        }
        SqlUserDefinedFunction function = CHECKED.get(math.getOperator());
        List<RexNode> operands = math.getOperands().stream()
            .map(operand -> rexBuilder.makeCast(rexBuilder.getTypeFactory().createTypeWithNullability(
                rexBuilder.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), operand.getType().isNullable()), operand))
            .toList();
        return rexBuilder.makeCall(math.getType(), function, operands);
    }

    /** The {@link NumericMath} function of a call that its operators typed as a numeric. */
    private static SqlUserDefinedFunction numericFunction(RexCall call) {
        if (!(call.getOperator() instanceof SqlBasicFunction || call.getOperator() instanceof NumericMath.Sqrt)) {
            return null;
        }
        return switch (call.getOperator().getName()) {
            case "SQRT" -> NUMERIC_SQRT;
            case "EXP" -> NUMERIC_EXP;
            case "LN" -> NUMERIC_LN;
            case "LOG10" -> NUMERIC_LOG10;
            case "LOG" -> call.getOperands().size() == 1 ? NUMERIC_LOG10 : NUMERIC_LOG;
            case "POWER" -> NUMERIC_POWER;
            default -> null;
        };
    }

    /** Called by the generated code, as are the others; public for that. */
    @Strict
    public static double sqrt(double value) {
        if (value < 0) {
            throw new PostgresMathException("cannot take square root of a negative number", Reason.POWER);
        }
        return Math.sqrt(value);
    }

    @Strict
    public static double ln(double value) {
        return Math.log(logarithmArgument(value));
    }

    @Strict
    public static double log10(double value) {
        return Math.log10(logarithmArgument(value));
    }

    @Strict
    public static double power(double base, double exponent) {
        if (base == 0 && exponent < 0) {
            throw new PostgresMathException("zero raised to a negative power is undefined", Reason.POWER);
        }
        if (base < 0 && exponent != Math.floor(exponent)) {
            throw new PostgresMathException("a negative number raised to a non-integer power yields a complex result",
                Reason.POWER);
        }
        return finite(Math.pow(base, exponent), base, exponent);
    }

    @Strict
    public static double exp(double value) {
        return finite(Math.exp(value), value, value);
    }

    private static double logarithmArgument(double value) {
        if (value == 0) {
            throw new PostgresMathException("cannot take logarithm of zero", Reason.LOGARITHM);
        }
        if (value < 0) {
            throw new PostgresMathException("cannot take logarithm of a negative number", Reason.LOGARITHM);
        }
        return value;
    }

    @Strict
    public static double round(double value) {
        return Math.rint(value);
    }

    /** An infinite result of finite arguments overflowed; one of infinite arguments is PostgreSQL's answer too. */
    private static double finite(double result, double first, double second) {
        if (Double.isInfinite(result) && Double.isFinite(first) && Double.isFinite(second)) {
            throw new PostgresMathException("value out of range: overflow", Reason.OUT_OF_RANGE);
        }
        return result;
    }
}
