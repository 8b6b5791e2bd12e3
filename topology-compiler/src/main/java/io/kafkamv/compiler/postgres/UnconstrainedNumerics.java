package io.kafkamv.compiler.postgres;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;

import io.kafkamv.compiler.types.InvalidInputException;
import io.kafkamv.compiler.types.PostgresTypeSystem;
import org.apache.calcite.linq4j.function.NonDeterministic;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * A numeric without a declared scale keeps the digits of each value, as PostgreSQL's does: {@code 1.50::numeric}
 * is 1.50 and the sum of 1.25 and 2.5 is 3.75. Calcite gives every numeric a fixed scale and a cast rounds
 * to it, so a cast to a numeric without a scale ({@link PostgresTypeSystem#isUnconstrained}), written by the
 * user or added by Calcite between a CASE's branches or after an aggregate, becomes a conversion that keeps the
 * value's digits. A float becomes the numeric of its 15 significant digits (6 for a real), as PostgreSQL's
 * {@code float8_numeric} prints it: the sum 1.1 + 2.2 + 3.3 is 6.6, not 6.6000000000000005.
 */
public final class UnconstrainedNumerics extends RexShuttle {

    /** The name {@link #toNumeric} is known by to SQL: a cast to numeric without a precision, parsed. */
    public static final String FUNCTION_NAME = "to_numeric";

    /** A call of {@link #toNumeric} in a parse tree. */
    public static final SqlOperator TO_NUMERIC_CALL = new SqlUnresolvedFunction(
        new SqlIdentifier(FUNCTION_NAME, SqlParserPos.ZERO), null, null, null, null,
        SqlFunctionCategory.USER_DEFINED_FUNCTION);

    private static final SqlUserDefinedFunction TO_NUMERIC =
        JavaFunctions.operator(FUNCTION_NAME, UnconstrainedNumerics.class, "toNumeric");

    /** {@link #toNumeric} as a function a schema can hold. */
    public static ScalarFunction function() {
        return ScalarFunctionImpl.create(UnconstrainedNumerics.class, "toNumeric");
    }

    private static final MathContext DOUBLE_DIGITS = new MathContext(15, RoundingMode.HALF_EVEN);
    private static final MathContext REAL_DIGITS = new MathContext(6, RoundingMode.HALF_EVEN);

    private final RexBuilder rexBuilder;

    public UnconstrainedNumerics(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexNode visited = super.visitCall(call);
        if (visited instanceof RexCall cast && cast.getKind() == SqlKind.CAST
            && PostgresTypeSystem.isUnconstrained(cast.getType())) {
            RexNode operand = cast.getOperands().get(0);
            return rexBuilder.makeCall(cast.getType(), TO_NUMERIC, List.of(operand));
        }
        return visited;
    }

    /**
     * Called by the generated code; public for that. Null in, null out. Marked non-deterministic, which it is
     * not, so that Calcite never folds a call into a constant: a constant of an unconstrained numeric type would be
     * rounded to scale 0.
     */
    @Strict
    @NonDeterministic
    public static BigDecimal toNumeric(Object value) {
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof Double number) {
            return fromFloat(number, DOUBLE_DIGITS);
        }
        if (value instanceof Float number) {
            return fromFloat(number.doubleValue(), REAL_DIGITS);
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        return fromText(value.toString());
    }

    private static BigDecimal fromFloat(double value, MathContext digits) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new InvalidInputException("cannot convert " + (Double.isNaN(value) ? "NaN" : "infinity")
                + " to numeric", InvalidInputException.Reason.OUT_OF_RANGE);
        }
        BigDecimal rounded = new BigDecimal(value).round(digits).stripTrailingZeros();
        return rounded.scale() < 0 ? rounded.setScale(0) : rounded;
    }

    /** PostgreSQL's bound on a numeric input's exponent (NUMERIC_MAX_PRECISION). */
    private static final int MAX_EXPONENT = 1000;

    private static BigDecimal fromText(String text) {
        try {
            String trimmed = text.trim();
            int e = Math.max(trimmed.indexOf('e'), trimmed.indexOf('E'));
            // As PostgreSQL, refused before it is read: 1e300000000 would be a number of a billion bits.
            if (e >= 0 && Math.abs(Long.parseLong(trimmed.substring(e + 1).replace("+", ""))) > MAX_EXPONENT) {
                throw new InvalidInputException("value overflows numeric format", InvalidInputException.Reason.OUT_OF_RANGE);
            }
            BigDecimal parsed = new BigDecimal(trimmed);
            return parsed.scale() < 0 ? parsed.setScale(0) : parsed;
        } catch (NumberFormatException e) {
            throw new InvalidInputException("invalid input syntax for type numeric: \"" + text + "\"",
                InvalidInputException.Reason.SYNTAX);
        }
    }
}
