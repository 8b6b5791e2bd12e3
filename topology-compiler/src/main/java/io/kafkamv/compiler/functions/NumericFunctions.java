package io.kafkamv.compiler.functions;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apache.calcite.linq4j.function.Strict;

/**
 * PostgreSQL's numeric functions that Calcite lacks: {@code div}, and {@code gcd} and {@code lcm} of integers, bigints
 * and numerics, each giving its arguments' type as PostgreSQL's do.
 */
public final class NumericFunctions {

    private NumericFunctions() {
    }

    /** {@code div(y, x)}: the integer quotient of y / x, truncated towards zero ({@code div(-7.5, 2)} is -3). */
    @Strict
    public static BigDecimal div(BigDecimal dividend, BigDecimal divisor) {
        if (divisor.signum() == 0) {
            throw new ArithmeticException("division by zero");
        }
        return dividend.divideToIntegralValue(divisor).setScale(0, RoundingMode.DOWN);
    }

    /** {@code gcd(a, b)}: the greatest common divisor, never negative; {@code gcd(0, 0)} is 0. */
    @Strict
    public static int gcd(int a, int b) {
        long gcd = gcd((long) a, (long) b);
        if (gcd > Integer.MAX_VALUE) {
            throw new ArithmeticException("integer overflow");
        }
        return (int) gcd;
    }

    @Strict
    public static long gcd(long a, long b) {
        long x = a;
        long y = b;
        while (y != 0) {
            long remainder = x % y;
            x = y;
            y = remainder;
        }
        if (x == Long.MIN_VALUE) {
            throw new ArithmeticException("long overflow");
        }
        return Math.abs(x);
    }

    /** {@code gcd} of numerics: {@code gcd(12.5, 2.5)} is 2.5, with the larger of the two scales. */
    @Strict
    public static BigDecimal gcd(BigDecimal a, BigDecimal b) {
        BigDecimal x = a.abs();
        BigDecimal y = b.abs();
        while (y.signum() != 0) {
            BigDecimal remainder = x.remainder(y);
            x = y;
            y = remainder;
        }
        return x.setScale(Math.max(Math.max(a.scale(), b.scale()), 0));
    }

    /** {@code lcm(a, b)}: the least common multiple, never negative; 0 when either is 0. */
    @Strict
    public static int lcm(int a, int b) {
        long lcm = lcm((long) a, (long) b);
        if (lcm > Integer.MAX_VALUE) {
            throw new ArithmeticException("integer overflow");
        }
        return (int) lcm;
    }

    @Strict
    public static long lcm(long a, long b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        long product = Math.multiplyExact(a / gcd(a, b), b);
        if (product == Long.MIN_VALUE) {
            throw new ArithmeticException("long overflow");
        }
        return Math.abs(product);
    }

    @Strict
    public static BigDecimal lcm(BigDecimal a, BigDecimal b) {
        int scale = Math.max(Math.max(a.scale(), b.scale()), 0);
        if (a.signum() == 0 || b.signum() == 0) {
            return BigDecimal.ZERO.setScale(scale);
        }
        return a.divide(gcd(a, b)).multiply(b).abs().setScale(scale);
    }
}
