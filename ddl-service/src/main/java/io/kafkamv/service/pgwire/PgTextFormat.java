package io.kafkamv.service.pgwire;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;

/** Values in PostgreSQL's text format, as psql and pgjdbc parse them. */
final class PgTextFormat {

    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
        .appendPattern("yyyy-MM-dd HH:mm:ss")
        .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 6, true).optionalEnd()
        .toFormatter();
    private static final DateTimeFormatter TIMESTAMPTZ = new DateTimeFormatterBuilder()
        .append(TIMESTAMP)
        .appendOffset("+HH:mm", "+00")
        .toFormatter();

    private PgTextFormat() {
    }

    static String format(Object value) {
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
            return floating(number, Double.toString(number), 15);
        }
        if (value instanceof Float number) {
            return floating(number, Float.toString(number), 6);
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
     * A float as PostgreSQL 12+ writes it: the shortest digits that read back exactly (Java's
     * {@code toString} gives those), plain between 1e-4 and 10^{@code digits}, else as {@code 1.5e+16}.
     */
    private static String floating(double number, String shortest, int digits) {
        if (Double.isNaN(number)) {
            return "NaN";
        }
        if (Double.isInfinite(number)) {
            return number > 0 ? "Infinity" : "-Infinity";
        }
        if (number == 0) {
            return 1 / number < 0 ? "-0" : "0";
        }
        BigDecimal exact = new BigDecimal(shortest).stripTrailingZeros();
        int exponent = exact.precision() - exact.scale() - 1;
        if (exponent >= -4 && exponent < digits) {
            return exact.toPlainString();
        }
        String mantissa = exact.movePointLeft(exponent).toPlainString();
        return mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format(java.util.Locale.ROOT, "%02d", Math.abs(exponent));
    }
}
