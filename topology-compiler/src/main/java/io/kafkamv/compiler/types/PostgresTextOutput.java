package io.kafkamv.compiler.types;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;

import io.kafkamv.connectors.schema.SqlType;

/**
 * Values in PostgreSQL's text format: what the PostgreSQL endpoint sends psql and pgjdbc, what COPY writes, and
 * what a cast to text makes of a value in views and queries alike ({@code ts::text}, {@code x::float8::text}).
 */
public final class PostgresTextOutput {

    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
        .appendPattern("yyyy-MM-dd HH:mm:ss")
        .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 6, true).optionalEnd()
        .toFormatter();
    private static final DateTimeFormatter TIMESTAMPTZ = new DateTimeFormatterBuilder()
        .append(TIMESTAMP)
        .appendOffset("+HH:mm", "+00")
        .toFormatter();

    private PostgresTextOutput() {
    }

    /**
     * A value of a column of this type: a {@code timestamptz} is shown at UTC, each session's time zone, with
     * its offset ({@code 2026-01-01 00:01:00+00}), whichever Java type the value came as.
     */
    public static String format(Object value, SqlType type) {
        if (type == SqlType.INTERVAL && value instanceof PostgresInterval interval) {
            return interval.text();
        }
        if (type == SqlType.INTERVAL && value instanceof Number millis) {
            return PostgresInterval.format(millis.longValue());
        }
        if (type == SqlType.TIMESTAMPTZ) {
            if (value instanceof java.sql.Timestamp timestamp) {
                return TIMESTAMPTZ.format(timestamp.toLocalDateTime().atOffset(ZoneOffset.UTC));
            }
            if (value instanceof LocalDateTime dateTime) {
                return TIMESTAMPTZ.format(dateTime.atOffset(ZoneOffset.UTC));
            }
        }
        return format(value);
    }

    public static String format(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Boolean bool) {
            return bool ? "t" : "f";
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof Double number) {
            return floating(number, shortest(number), 15);
        }
        if (value instanceof Float number) {
            return floating(number, shortest(number), 6);
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            return TIMESTAMP.format(timestamp.toLocalDateTime());
        }
        if (value instanceof LocalDateTime dateTime) {
            return TIMESTAMP.format(dateTime);
        }
        if (value instanceof OffsetDateTime dateTime) {
            return TIMESTAMPTZ.format(dateTime);
        }
        if (value instanceof java.util.List<?> elements) {
            return array(elements);
        }
        if (value instanceof byte[] bytes) {
            StringBuilder hex = new StringBuilder("\\x");
            for (byte b : bytes) {
                hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            return hex.toString();
        }
        return value.toString();
    }

    /**
     * An array as PostgreSQL writes one, {@code {1,2,NULL}}: an element that is empty, says NULL, or holds a brace,
     * comma, quote, backslash or space is quoted, its quotes and backslashes escaped.
     */
    private static String array(java.util.List<?> elements) {
        StringBuilder out = new StringBuilder("{");
        for (int i = 0; i < elements.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            Object element = elements.get(i);
            String text = format(element);
            if (text == null) {
                out.append("NULL");
            } else if (element instanceof java.util.List<?> || !needsQuotes(text)) {
                out.append(text);
            } else {
                out.append('"').append(text.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            }
        }
        return out.append('}').toString();
    }

    private static boolean needsQuotes(String text) {
        return text.isEmpty() || text.equalsIgnoreCase("NULL") || text.chars().anyMatch(c -> c == '{' || c == '}'
            || c == ',' || c == '"' || c == '\\' || Character.isWhitespace(c));
    }

    /**
     * The fewest significant digits that read back as the same double, as PostgreSQL's Ryū-based output
     * finds them: a candidate must lie within the double's rounding interval, on its lower bound only when
     * the double's mantissa is even, never on its upper one. Java 17's {@code Double.toString} sometimes gives more digits (fixed in
     * Java 19), and takes 1e23 for the double 9.999999999999999e+22, which PostgreSQL does not.
     */
    private static BigDecimal shortest(double number) {
        if (!Double.isFinite(number) || number == 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal exact = new BigDecimal(number);
        BigDecimal ulp = new BigDecimal(Math.ulp(number));
        return shortest(exact, new BigDecimal(Math.nextDown(number)), Double.isFinite(Math.nextUp(number))
            ? new BigDecimal(Math.nextUp(number)) : exact.add(ulp), (Double.doubleToRawLongBits(number) & 1) == 0, 17);
    }

    private static BigDecimal shortest(float number) {
        if (!Float.isFinite(number) || number == 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal exact = new BigDecimal(number);
        BigDecimal ulp = new BigDecimal(Math.ulp(number));
        return shortest(exact, new BigDecimal(Math.nextDown(number)), Float.isFinite(Math.nextUp(number))
            ? new BigDecimal(Math.nextUp(number)) : exact.add(ulp), (Float.floatToRawIntBits(number) & 1) == 0, 9);
    }

    private static BigDecimal shortest(BigDecimal exact, BigDecimal below, BigDecimal above, boolean boundsIncluded,
                                       int maxDigits) {
        BigDecimal two = BigDecimal.valueOf(2);
        BigDecimal low = exact.add(below).divide(two);
        BigDecimal high = exact.add(above).divide(two);
        for (int digits = 1; digits < maxDigits; digits++) {
            BigDecimal candidate = exact.round(new java.math.MathContext(digits));
            int fromLow = candidate.compareTo(low);
            int fromHigh = candidate.compareTo(high);
            if (fromLow > 0 && fromHigh < 0 || boundsIncluded && fromLow == 0) {
                return candidate;
            }
        }
        return exact.round(new java.math.MathContext(maxDigits));
    }

    /**
     * A float as PostgreSQL 12+ writes it: the shortest digits that read back exactly, plain between 1e-4
     * and 10^{@code digits}, else as {@code 1.5e+16}.
     */
    private static String floating(double number, BigDecimal shortest, int digits) {
        if (Double.isNaN(number)) {
            return "NaN";
        }
        if (Double.isInfinite(number)) {
            return number > 0 ? "Infinity" : "-Infinity";
        }
        if (number == 0) {
            return 1 / number < 0 ? "-0" : "0";
        }
        BigDecimal exact = shortest.stripTrailingZeros();
        int exponent = exact.precision() - exact.scale() - 1;
        if (exponent >= -4 && exponent < digits) {
            return exact.toPlainString();
        }
        String mantissa = exact.movePointLeft(exponent).toPlainString();
        return mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format(java.util.Locale.ROOT, "%02d", Math.abs(exponent));
    }
}
