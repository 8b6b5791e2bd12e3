package io.kafkamv.compiler.topology.internal;

import java.math.BigDecimal;

import io.kafkamv.connectors.schema.SqlType;

/** Converts a computed value to the Java form its column type is stored in. */
public final class SqlValues {

    private SqlValues() {
    }

    /** The value as its column's type; an integer out of the type's range is an {@link ArithmeticException}. */
    public static Object convert(Object value, SqlType type) {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case SMALLINT -> (short) exactInteger(value, Short.MIN_VALUE, Short.MAX_VALUE, "smallint");
            case INTEGER -> (int) exactInteger(value, Integer.MIN_VALUE, Integer.MAX_VALUE, "integer");
            case BIGINT -> exactInteger(value, Long.MIN_VALUE, Long.MAX_VALUE, "bigint");
            case REAL -> ((Number) value).floatValue();
            case DOUBLE -> ((Number) value).doubleValue();
            case DECIMAL -> Accumulator.Numbers.toDecimal(value);
            default -> value;
        };
    }

    private static long exactInteger(Object value, long min, long max, String type) {
        long exact;
        try {
            exact = value instanceof BigDecimal decimal ? decimal.longValueExact() : ((Number) value).longValue();
        } catch (ArithmeticException e) {
            throw new ArithmeticException(type + " out of range");
        }
        if (exact < min || exact > max) {
            throw new ArithmeticException(type + " out of range");
        }
        return exact;
    }
}
