package io.kafkamv.compiler.functions;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;

/**
 * PostgreSQL's numeric functions that Calcite lacks: {@code div}, and {@code gcd} and {@code lcm} of integers, bigints
 * and numerics, each giving its arguments' type as PostgreSQL's do; and the bitwise operators of integers and bigints.
 * Strict, as PostgreSQL's: a null argument gives null without a call (an int parameter cannot take one).
 */
@Strict
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

    /** The name {@code a >> n} is parsed into (PostgresOperators). */
    static final String SHIFT_RIGHT = "kafka_mv_shift_right";

    /** {@code a >> n}: an arithmetic shift, the sign kept, the count taken modulo 32 as PostgreSQL's C shift does. */
    public static int shiftRight(int value, int count) {
        return value >> count;
    }

    /** {@code a >> n} of a bigint, the count taken modulo 64. */
    public static long shiftRight(long value, int count) {
        return value >> count;
    }

    /** The names PostgreSQL's bitwise operators are parsed into (PostgresOperators). */
    static final String BIT_AND = "kafka_mv_bit_and";
    static final String BIT_OR = "kafka_mv_bit_or";
    static final String BIT_XOR = "kafka_mv_bit_xor";
    static final String BIT_NOT = "kafka_mv_bit_not";

    // Calcite's BITAND and its kin compute in long whatever the type, which its generated code cannot box back into
    // an Integer for a nullable int column; these keep int as int, as PostgreSQL's int4and does.
    public static int bitAnd(int a, int b) {
        return a & b;
    }

    public static long bitAnd(long a, long b) {
        return a & b;
    }

    public static int bitOr(int a, int b) {
        return a | b;
    }

    public static long bitOr(long a, long b) {
        return a | b;
    }

    public static int bitXor(int a, int b) {
        return a ^ b;
    }

    public static long bitXor(long a, long b) {
        return a ^ b;
    }

    public static int bitNot(int a) {
        return ~a;
    }

    public static long bitNot(long a) {
        return ~a;
    }

    static void addTo(SchemaPlus schema) {
        for (Class<?> type : List.of(int.class, long.class)) {
            schema.add(BIT_AND, function("bitAnd", type, type));
            schema.add(BIT_OR, function("bitOr", type, type));
            schema.add(BIT_XOR, function("bitXor", type, type));
            schema.add(BIT_NOT, function("bitNot", type));
            schema.add(SHIFT_RIGHT, function("shiftRight", type, int.class));
            schema.add("gcd", function("gcd", type, type));
            schema.add("lcm", function("lcm", type, type));
        }
        schema.add("gcd", function("gcd", BigDecimal.class, BigDecimal.class));
        schema.add("lcm", function("lcm", BigDecimal.class, BigDecimal.class));
        schema.add("div", function("div", BigDecimal.class, BigDecimal.class));
    }

    private static Function function(String name, Class<?>... parameters) {
        try {
            return ScalarFunctionImpl.create(NumericFunctions.class.getMethod(name, parameters));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
