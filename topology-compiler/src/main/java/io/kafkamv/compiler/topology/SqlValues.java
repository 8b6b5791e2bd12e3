package io.kafkamv.compiler.topology;

import io.kafkamv.connectors.schema.SqlType;

/** Converts a computed value to the Java form its column type is stored in. */
final class SqlValues {

    private SqlValues() {
    }

    static Object convert(Object value, SqlType type) {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case SMALLINT -> ((Number) value).shortValue();
            case INTEGER -> ((Number) value).intValue();
            case BIGINT -> ((Number) value).longValue();
            case REAL -> ((Number) value).floatValue();
            case DOUBLE -> ((Number) value).doubleValue();
            case DECIMAL -> Accumulator.Numbers.toDecimal(value);
            default -> value;
        };
    }
}
