package io.kafkamv.compiler.postgres;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

import io.kafkamv.compiler.types.PostgresMathException;
import io.kafkamv.compiler.types.PostgresMathException.Reason;
import org.apache.calcite.linq4j.function.NonDeterministic;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;

/**
 * {@code sqrt}, {@code exp}, {@code ln}, {@code log}, {@code log10} and {@code power} (also {@code ^}) of numerics as
 * PostgreSQL computes them: a numeric, with the decimals PostgreSQL chooses, enough for at least 16 significant
 * digits and never fewer than an argument's ({@code sqrt(2::numeric)} is {@code 1.414213562373095}, {@code exp(1.0)}
 * {@code 2.7182818284590452}, {@code 2::numeric ^ 10} {@code 1024.0000000000000000}). Calcite made each a double,
 * whose last digits differ. As PostgreSQL resolves the call, an argument of a floating-point type makes it a double,
 * and so do integers alone ({@code sqrt(2)} is {@code 1.4142135623730951}).
 */
public final class NumericMath {

    private static final int MIN_SIG_DIGITS = 16;
    private static final int MAX_DISPLAY_SCALE = 1000;
    /** PostgreSQL's exp() of more than this overflows, and of less than its negative is 0. */
    private static final int MAX_EXP_ARGUMENT = 6000;
    /** PostgreSQL's NUMERIC_MAX_RESULT_SCALE, which bounds power's first estimate. */
    private static final int MAX_RESULT_SCALE = 2000;
    private static final int GUARD_DIGITS = 12;
    private static final BigDecimal TWO = BigDecimal.valueOf(2);
    private static final double LOG10_E = 0.434294481903252;

    private static final SqlReturnTypeInference NUMERIC_OR_DOUBLE = NumericMath::returnType;

    /**
     * Calcite's functions typed as PostgreSQL types them, found before Calcite's own of the same names (which they equal
     * as operators, so Calcite's rules and code for them still apply).
     */
    public static final SqlOperatorTable OPERATORS = SqlOperatorTables.of(
        Sqrt.INSTANCE, typed(SqlStdOperatorTable.EXP), typed(SqlStdOperatorTable.LN),
        typed(SqlStdOperatorTable.LOG10), typed(SqlStdOperatorTable.POWER), typed(SqlLibraryOperators.LOG_POSTGRES));

    private NumericMath() {
    }

    /**
     * {@code sqrt}, of a class of its own: Calcite converts its own SQRT into {@code POWER(x, 0.5)}, a double, which
     * a numeric's square root must not become. {@link CheckedMath} gives each call its code.
     */
    static final class Sqrt extends SqlFunction {
        static final Sqrt INSTANCE = new Sqrt();

        private Sqrt() {
            super("SQRT", SqlKind.OTHER_FUNCTION, NUMERIC_OR_DOUBLE, null, OperandTypes.NUMERIC, SqlFunctionCategory.NUMERIC);
        }
    }

    private static SqlOperator typed(SqlOperator calcite) {
        return ((SqlBasicFunction) calcite).withReturnTypeInference(NUMERIC_OR_DOUBLE);
    }

    private static RelDataType returnType(SqlOperatorBinding binding) {
        boolean approximate = false;
        boolean numeric = false;
        boolean nullable = false;
        for (int i = 0; i < binding.getOperandCount(); i++) {
            RelDataType type = binding.getOperandType(i);
            approximate |= type.getSqlTypeName().getFamily() == SqlTypeFamily.APPROXIMATE_NUMERIC;
            numeric |= type.getSqlTypeName() == SqlTypeName.DECIMAL;
            nullable |= type.isNullable();
        }
        // PostgreSQL's log(b, x) is of numerics only.
        boolean logarithm = binding.getOperator().getName().equals("LOG") && binding.getOperandCount() == 2;
        SqlTypeName result = logarithm || numeric && !approximate ? SqlTypeName.DECIMAL : SqlTypeName.DOUBLE;
        return binding.getTypeFactory().createTypeWithNullability(binding.getTypeFactory().createSqlType(result), nullable);
    }

    /**
     * Called by the generated code, as are the others; public for that. Not folded into constants when a query is
     * planned: Calcite would make the result a literal of the type numeric without a scale, which rounds it to an
     * integer ({@code 1.2 < sqrt(2.0)} was false).
     */
    @Strict
    @NonDeterministic
    public static BigDecimal sqrt(BigDecimal value) {
        if (value.signum() < 0) {
            throw new PostgresMathException("cannot take square root of a negative number", Reason.POWER);
        }
        int rscale = scale(MIN_SIG_DIGITS - (2 * weight(value) + 1), value);
        if (value.signum() == 0) {
            return BigDecimal.ZERO.setScale(rscale);
        }
        return value.sqrt(context((value.precision() - value.scale()) / 2 + 1, rscale)).setScale(rscale, RoundingMode.HALF_UP);
    }

    @Strict
    @NonDeterministic
    public static BigDecimal exp(BigDecimal value) {
        double x = value.doubleValue();
        int rscale = scale(MIN_SIG_DIGITS - (int) Math.max(-2000, Math.min(2000, x * LOG10_E)), value);
        if (Math.abs(x) >= MAX_EXP_ARGUMENT) {
            if (x > 0) {
                throw new PostgresMathException("value overflows numeric format", Reason.OUT_OF_RANGE);
            }
            return BigDecimal.ZERO.setScale(rscale);
        }
        int integerDigits = (int) Math.max(0, x * LOG10_E) + 1;
        return exp(value, context(integerDigits, rscale)).setScale(rscale, RoundingMode.HALF_UP);
    }

    @Strict
    @NonDeterministic
    public static BigDecimal ln(BigDecimal value) {
        logarithmArgument(value);
        int rscale = scale(MIN_SIG_DIGITS - lnDecimalWeight(value), value);
        return ln(value, context(lnDecimalWeight(value) + 1, rscale)).setScale(rscale, RoundingMode.HALF_UP);
    }

    /** {@code log(x)} and {@code log10(x)}: PostgreSQL's is {@code log(10, x)}. */
    @Strict
    @NonDeterministic
    public static BigDecimal log10(BigDecimal value) {
        return log(BigDecimal.TEN, value);
    }

    @Strict
    @NonDeterministic
    public static BigDecimal log(BigDecimal base, BigDecimal value) {
        logarithmArgument(base);
        logarithmArgument(value);
        int resultWeight = lnDecimalWeight(value) - lnDecimalWeight(base);
        int rscale = scale(MIN_SIG_DIGITS - resultWeight, base, value);
        MathContext context = context(Math.abs(resultWeight) + 1, rscale + Math.abs(lnDecimalWeight(base)));
        BigDecimal lnBase = ln(base, context);
        if (lnBase.signum() == 0) {
            throw new ArithmeticException("division by zero");
        }
        return ln(value, context).divide(lnBase, context).setScale(rscale, RoundingMode.HALF_UP);
    }

    @Strict
    @NonDeterministic
    public static BigDecimal power(BigDecimal base, BigDecimal exponent) {
        if (base.signum() == 0 && exponent.signum() < 0) {
            throw new PostgresMathException("zero raised to a negative power is undefined", Reason.POWER);
        }
        boolean integral = exponent.signum() == 0 || exponent.stripTrailingZeros().scale() <= 0;
        if (base.signum() < 0 && !integral) {
            throw new PostgresMathException("a negative number raised to a non-integer power yields a complex result",
                Reason.POWER);
        }
        if (integral && exponent.abs().compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
            return integerPower(base, exponent.intValueExact());
        }
        if (base.signum() == 0) {
            return BigDecimal.ZERO.setScale(MIN_SIG_DIGITS);
        }
        // A negative base has an integral exponent here: its sign is the power's if the exponent is odd.
        boolean negative = base.signum() < 0 && exponent.toBigInteger().testBit(0);
        BigDecimal magnitude = base.abs();
        // PostgreSQL estimates the result's weight from ln(base) to about 8 significant digits, times the exponent, at
        // that scale; the estimate chooses the scale, so it is made the same way.
        int localScale = Math.max(8 - lnDecimalWeight(magnitude), 0);
        double lnResult = ln(magnitude, context(lnDecimalWeight(magnitude) + 1, localScale))
            .setScale(localScale, RoundingMode.HALF_UP).multiply(exponent).setScale(localScale, RoundingMode.HALF_UP)
            .doubleValue();
        if (Math.abs(lnResult) > MAX_RESULT_SCALE * 3.01) {
            if (lnResult > 0) {
                throw new PostgresMathException("value overflows numeric format", Reason.OUT_OF_RANGE);
            }
            return BigDecimal.ZERO.setScale(MAX_DISPLAY_SCALE);
        }
        double weight = lnResult * LOG10_E;
        int rscale = scale(MIN_SIG_DIGITS - (int) weight, base, exponent);
        if (Math.abs(lnResult) >= MAX_EXP_ARGUMENT) {
            if (lnResult > 0) {
                throw new PostgresMathException("value overflows numeric format", Reason.OUT_OF_RANGE);
            }
            return BigDecimal.ZERO.setScale(rscale);
        }
        // An error in the exponent's ln(base) * exponent is the result's relative error: that product needs as many more
        // digits as it has before the point.
        MathContext context = context((int) Math.max(0, weight) + 2 + (int) Math.log10(Math.abs(lnResult) + 1), rscale);
        BigDecimal power = exp(ln(magnitude, context).multiply(exponent, context), context).setScale(rscale,
            RoundingMode.HALF_UP);
        return negative ? power.negate() : power;
    }

    /** PostgreSQL's power_var_int: at least 16 decimals, as many as the base has; 0 when the power is below them. */
    private static BigDecimal integerPower(BigDecimal base, int n) {
        int rscale = scale(MIN_SIG_DIGITS, base);
        if (base.signum() == 0) {
            return (n == 0 ? BigDecimal.ONE : BigDecimal.ZERO).setScale(rscale);
        }
        double weight = n * decimalLog(base.abs());
        if (weight > 131_072) {
            throw new PostgresMathException("value overflows numeric format", Reason.OUT_OF_RANGE);
        }
        if (weight + 1 < -rscale) {
            return BigDecimal.ZERO.setScale(rscale);
        }
        int digits = (int) Math.max(1, Math.ceil(weight) + 1 + rscale) + (int) Math.log10(Math.abs((double) n) + 1);
        MathContext context = new MathContext(digits + GUARD_DIGITS, RoundingMode.HALF_EVEN);
        if (Math.abs(n) <= 999_999_999) {
            return base.pow(n, context).setScale(rscale, RoundingMode.HALF_UP);
        }
        // Beyond BigDecimal.pow's exponents: e^(n ln|base|), with the sign of an odd power of a negative base.
        BigDecimal magnitude = exp(ln(base.abs(), context).multiply(BigDecimal.valueOf(n), context), context);
        return (base.signum() < 0 && n % 2 != 0 ? magnitude.negate() : magnitude).setScale(rscale, RoundingMode.HALF_UP);
    }

    private static void logarithmArgument(BigDecimal value) {
        if (value.signum() == 0) {
            throw new PostgresMathException("cannot take logarithm of zero", Reason.LOGARITHM);
        }
        if (value.signum() < 0) {
            throw new PostgresMathException("cannot take logarithm of a negative number", Reason.LOGARITHM);
        }
    }

    /** The result scale: at least every argument's scale, at most PostgreSQL's 1000 decimals. */
    private static int scale(int wanted, BigDecimal... arguments) {
        int rscale = Math.max(wanted, 0);
        for (BigDecimal argument : arguments) {
            rscale = Math.max(rscale, Math.max(argument.scale(), 0));
        }
        return Math.min(rscale, MAX_DISPLAY_SCALE);
    }

    /** Enough significant digits for {@code integerDigits} before the point and {@code scale} after it. */
    private static MathContext context(int integerDigits, int scale) {
        return new MathContext(Math.max(integerDigits, 1) + scale + GUARD_DIGITS, RoundingMode.HALF_EVEN);
    }

    /** log10 of a positive numeric as a double, also of one beyond a double's range. */
    private static double decimalLog(BigDecimal value) {
        BigDecimal magnitude = value.abs();
        int exponent = magnitude.precision() - magnitude.scale() - 1;
        return exponent + Math.log10(magnitude.movePointLeft(exponent).doubleValue());
    }

    /** The weight of a numeric's first digit in PostgreSQL's base 10000: 0 for 1 to 9999, -1 for 0.0001 to 0.9999. */
    private static int weight(BigDecimal value) {
        return value.signum() == 0 ? 0 : Math.floorDiv(value.precision() - value.scale() - 1, 4);
    }

    /** PostgreSQL's estimate of the decimal weight of ln(value) (estimate_ln_dweight), which sets ln's and log's scale. */
    static int lnDecimalWeight(BigDecimal value) {
        if (value.compareTo(new BigDecimal("0.9")) >= 0 && value.compareTo(new BigDecimal("1.1")) <= 0) {
            BigDecimal x = value.subtract(BigDecimal.ONE).abs();
            if (x.signum() == 0) {
                return 0;
            }
            int weight = weight(x);
            int firstDigit = x.movePointLeft(4 * weight).intValue();
            return weight * 4 + (int) Math.log10(firstDigit);
        }
        int weight = weight(value);
        BigDecimal groups = value.movePointLeft(4 * weight);
        long digits = groups.intValue();
        int decimalWeight = weight * 4;
        BigDecimal rest = groups.subtract(BigDecimal.valueOf(digits));
        if (rest.signum() != 0) {
            digits = digits * 10_000 + rest.movePointRight(4).intValue();
            decimalWeight -= 4;
        }
        double ln = Math.log(digits) + decimalWeight * 2.302585092994046;
        return (int) Math.log10(Math.abs(ln));
    }

    /** e^x by halving x until it is small, summing the Taylor series, and squaring back. */
    private static BigDecimal exp(BigDecimal x, MathContext context) {
        int halvings = 0;
        BigDecimal reduced = x;
        while (reduced.abs().compareTo(new BigDecimal("0.01")) > 0) {
            reduced = reduced.divide(TWO);
            halvings++;
        }
        MathContext working = new MathContext(context.getPrecision() + halvings / 3 + 2, RoundingMode.HALF_EVEN);
        BigDecimal sum = BigDecimal.ONE;
        BigDecimal term = BigDecimal.ONE;
        BigDecimal epsilon = BigDecimal.ONE.movePointLeft(working.getPrecision() + 2);
        for (int k = 1; term.abs().compareTo(epsilon) > 0; k++) {
            term = term.multiply(reduced, working).divide(BigDecimal.valueOf(k), working);
            sum = sum.add(term, working);
        }
        for (int i = 0; i < halvings; i++) {
            sum = sum.multiply(sum, working);
        }
        return sum.round(context);
    }

    /** ln(x) by square roots until x is near 1, then 2 atanh((x - 1) / (x + 1)), doubled back. */
    private static BigDecimal ln(BigDecimal x, MathContext context) {
        int roots = 0;
        MathContext working = new MathContext(context.getPrecision() + 40, RoundingMode.HALF_EVEN);
        BigDecimal reduced = x;
        BigDecimal near = new BigDecimal("0.001");
        while (reduced.subtract(BigDecimal.ONE).abs().compareTo(near) > 0) {
            reduced = reduced.sqrt(working);
            roots++;
        }
        BigDecimal z = reduced.subtract(BigDecimal.ONE).divide(reduced.add(BigDecimal.ONE), working);
        BigDecimal zSquared = z.multiply(z, working);
        BigDecimal sum = z;
        BigDecimal power = z;
        BigDecimal epsilon = BigDecimal.ONE.movePointLeft(working.getPrecision() + 2);
        for (int k = 3; power.abs().compareTo(epsilon) > 0; k += 2) {
            power = power.multiply(zSquared, working);
            sum = sum.add(power.divide(BigDecimal.valueOf(k), working), working);
        }
        return sum.multiply(TWO.pow(roots + 1), working).round(context);
    }
}
