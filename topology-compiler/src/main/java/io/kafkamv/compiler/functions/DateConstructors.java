package io.kafkamv.compiler.functions;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.LocalDate;

import io.kafkamv.compiler.types.InvalidInputException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

import static io.kafkamv.compiler.functions.MethodFunction.parameter;

/**
 * PostgreSQL's {@code make_date(year, month, day)} and {@code make_timestamp(year, month, day, hour, min, sec)}, in
 * Calcite's values of a date (days since 1970) and a timestamp (milliseconds). A negative year is a year BC, as in
 * PostgreSQL (there is no year 0); seconds keep their fraction to the millisecond, kafka-mv's precision.
 */
public final class DateConstructors {

    private static final long DAY = 86_400_000L;

    private DateConstructors() {
    }

    static void addTo(SchemaPlus schema) {
        schema.add("make_date", MethodFunction.of(DateConstructors.class, "makeDate", SqlTypeName.DATE,
            parameter("year", SqlTypeName.INTEGER), parameter("month", SqlTypeName.INTEGER),
            parameter("day", SqlTypeName.INTEGER)));
        schema.add("make_timestamp", MethodFunction.of(DateConstructors.class, "makeTimestamp", SqlTypeName.TIMESTAMP,
            parameter("year", SqlTypeName.INTEGER), parameter("month", SqlTypeName.INTEGER),
            parameter("mday", SqlTypeName.INTEGER), parameter("hour", SqlTypeName.INTEGER),
            parameter("min", SqlTypeName.INTEGER), parameter("sec", SqlTypeName.DOUBLE)));
    }

    public static int makeDate(int year, int month, int day) {
        return (int) date(year, month, day).toEpochDay();
    }

    /** Seconds up to 60 (a leap second, the next minute) and 24:00:00 (the next midnight) are taken, as there. */
    public static long makeTimestamp(int year, int month, int day, int hour, int minute, double second) {
        LocalDate date = date(year, month, day);
        boolean midnight = hour == 24 && minute == 0 && second == 0;
        if (!midnight && (hour < 0 || hour > 23 || minute < 0 || minute > 59 || !(second >= 0 && second <= 60))) {
            throw new InvalidInputException("time field value out of range: " + hour + ":" + String.format("%02d", minute)
                + ":" + seconds(second), InvalidInputException.Reason.DATETIME_FIELD_OUT_OF_RANGE);
        }
        long millis = Math.round(second * 1000) + (hour * 3600L + minute * 60L) * 1000;
        try {
            return Math.addExact(Math.multiplyExact(date.toEpochDay(), DAY), millis);
        } catch (ArithmeticException e) {
            throw new InvalidInputException("timestamp out of range", InvalidInputException.Reason.DATETIME_FIELD_OUT_OF_RANGE);
        }
    }

    /** Seconds as PostgreSQL's message writes them ({@code %02g}): {@code 05}, {@code 61}, {@code 60.5}. */
    private static String seconds(double second) {
        if (!Double.isFinite(second)) {
            return Double.isNaN(second) ? "NaN" : second > 0 ? "Infinity" : "-Infinity";
        }
        String text = BigDecimal.valueOf(second).stripTrailingZeros().toPlainString();
        return second >= 0 && second < 10 ? "0" + text : text;
    }

    private static LocalDate date(int year, int month, int day) {
        try {
            if (year == 0) {
                throw new DateTimeException("year 0");
            }
            // PostgreSQL's year -1 is 1 BC, ISO's year 0.
            LocalDate date = LocalDate.of(year < 0 ? year + 1 : year, month, day);
            if (year < -4713 || year > 5_874_897) {
                throw new InvalidInputException("date out of range: " + year + "-" + String.format("%02d-%02d", month, day),
                    InvalidInputException.Reason.DATETIME_FIELD_OUT_OF_RANGE);
            }
            return date;
        } catch (DateTimeException e) {
            throw new InvalidInputException("date field value out of range: " + year + "-"
                + String.format("%02d-%02d", month, day), InvalidInputException.Reason.DATETIME_FIELD_OUT_OF_RANGE);
        }
    }
}
