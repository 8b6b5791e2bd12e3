package io.kafkamv.compiler.functions;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apache.calcite.linq4j.function.Strict;

/** PostgreSQL's numeric functions that Calcite lacks: {@code div}, {@code gcd}, {@code lcm}. */
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

    /** {@code lcm(a, b)}: the least common multiple, never negative; 0 when either is 0. */
    @Strict
    public static long lcm(long a, long b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return Math.absExact(Math.multiplyExact(a / gcd(a, b), b));
    }
}
