package io.kafkamv.service.background;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.kafkamv.compiler.types.PostgresInterval;

/** Result values as JSON: numbers, booleans and strings as themselves, times and dates as ISO text. */
public final class JsonValues {

    private JsonValues() {
    }

    public static List<Object> row(List<Object> values) {
        List<Object> row = new ArrayList<>(values.size());
        for (Object value : values) {
            row.add(of(value));
        }
        return row;
    }

    public static Object of(Object value) {
        if (value == null || value instanceof Boolean || value instanceof String || value instanceof BigDecimal
            || value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Double
            || value instanceof Float) {
            return value;
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            return timestamp.toLocalDateTime().toString();
        }
        if (value instanceof PostgresInterval interval) {
            return interval.text();
        }
        if (value instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        return value.toString();
    }
}
