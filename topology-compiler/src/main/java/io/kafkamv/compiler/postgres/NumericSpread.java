package io.kafkamv.compiler.postgres;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Map;

import io.kafkamv.compiler.types.PostgresNumeric;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * {@code stddev}, {@code variance} and their {@code _pop} and {@code _samp} forms of integers and numerics, as
 * PostgreSQL computes them ({@code numeric_stddev_internal}): from the exact sum, sum of squares and count, the
 * variance a numeric division with PostgreSQL's digits and the deviation its square root to as many decimals.
 * Calcite's gave 15 significant digits ({@code 1.52752523165195} for PostgreSQL's {@code 1.5275252316519467})
 * and a last digit off ({@code 2.3333333333333334}). Of doubles, both compute in doubles and agree.
 */
public final class NumericSpread {

    /** The function of each aggregate, called with the sum, the sum of squares and the count. */
    public static final Map<SqlKind, SqlUserDefinedFunction> BY_KIND = Map.of(
        SqlKind.VAR_SAMP, JavaFunctions.operator("var_samp", NumericSpread.class, "varianceOfSample"),
        SqlKind.VAR_POP, JavaFunctions.operator("var_pop", NumericSpread.class, "varianceOfPopulation"),
        SqlKind.STDDEV_SAMP, JavaFunctions.operator("stddev_samp", NumericSpread.class, "deviationOfSample"),
        SqlKind.STDDEV_POP, JavaFunctions.operator("stddev_pop", NumericSpread.class, "deviationOfPopulation"));

    private NumericSpread() {
    }

    /** Called by the generated code, as are the others; null where PostgreSQL's is (no rows, or one for a sample). */
    public static BigDecimal varianceOfSample(BigDecimal sum, BigDecimal sumOfSquares, long count) {
        return count < 2 ? null : variance(sum, sumOfSquares, count, BigDecimal.valueOf(count).multiply(BigDecimal.valueOf(count - 1)));
    }

    public static BigDecimal varianceOfPopulation(BigDecimal sum, BigDecimal sumOfSquares, long count) {
        return count < 1 ? null : variance(sum, sumOfSquares, count, BigDecimal.valueOf(count).pow(2));
    }

    public static BigDecimal deviationOfSample(BigDecimal sum, BigDecimal sumOfSquares, long count) {
        return squareRoot(varianceOfSample(sum, sumOfSquares, count));
    }

    public static BigDecimal deviationOfPopulation(BigDecimal sum, BigDecimal sumOfSquares, long count) {
        return squareRoot(varianceOfPopulation(sum, sumOfSquares, count));
    }

    private static BigDecimal variance(BigDecimal sum, BigDecimal sumOfSquares, long count, BigDecimal divisor) {
        BigDecimal spread = BigDecimal.valueOf(count).multiply(sumOfSquares).subtract(sum.multiply(sum));
        return spread.signum() <= 0 ? BigDecimal.ZERO : PostgresNumeric.divide(spread, divisor);
    }

    /** To the variance's decimals, rounded half away from zero. */
    private static BigDecimal squareRoot(BigDecimal variance) {
        if (variance == null || variance.signum() == 0) {
            return variance;
        }
        return variance.sqrt(new MathContext(variance.precision() + variance.scale() + 10, RoundingMode.DOWN))
            .setScale(variance.scale(), RoundingMode.HALF_UP);
    }
}
