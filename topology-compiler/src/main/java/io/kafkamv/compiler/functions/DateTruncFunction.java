package io.kafkamv.compiler.functions;

import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.List;

import io.kafkamv.compiler.types.InvalidInputException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

import static io.kafkamv.compiler.functions.MethodFunction.parameter;

/**
 * PostgreSQL's {@code date_trunc('unit', timestamp)}. Calcite's grammar turns every {@code date_trunc(...)}
 * into its BigQuery operator, whose checker takes only {@code date_trunc(ts, MINUTE)}; validation then
 * looks the call up again by the name {@code DATE_TRUNC}, and finds this function in the schema. It
 * works on Calcite's own timestamp value (wall-clock milliseconds read as UTC), so no time zone of the
 * JVM comes into it.
 */
public final class DateTruncFunction {

    private DateTruncFunction() {
    }

    /**
     * For a timestamp, and a timestamptz (truncated at UTC, the time zone of every session): each gives its own type
     * back, as in PostgreSQL. Both are the same milliseconds to {@link #truncate}. Upper case: the validator looks the
     * parsed call up by its operator's name, DATE_TRUNC.
     */
    static void addTo(SchemaPlus schema) {
        for (SqlTypeName type : List.of(SqlTypeName.TIMESTAMP, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)) {
            schema.add("DATE_TRUNC", MethodFunction.of(DateTruncFunction.class, "truncate", type,
                parameter("field", SqlTypeName.VARCHAR), parameter("source", type)));
        }
        schema.add("DATE_TRUNC", MethodFunction.of(DateTruncFunction.class, "truncateDate",
            SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, parameter("field", SqlTypeName.VARCHAR),
            parameter("source", SqlTypeName.DATE)));
    }

    /** A date is truncated as the timestamptz of its midnight (UTC), as PostgreSQL casts it: the result is one too. */
    public static long truncateDate(String field, int days) {
        return truncate(field, days * 86_400_000L);
    }

    /** {@code timestamp} (milliseconds of wall-clock time, as UTC) truncated to {@code field}, PostgreSQL's way. */
    public static long truncate(String field, long timestamp) {
        String unit = DatetimeUnits.of(field);
        if (unit == null) {
            throw new InvalidInputException("unit \"" + field + "\" not recognized for date_trunc",
                InvalidInputException.Reason.INVALID_PARAMETER);
        }
        LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(timestamp, 1000L),
            (int) Math.floorMod(timestamp, 1000L) * 1_000_000, ZoneOffset.UTC);
        LocalDateTime day = time.truncatedTo(ChronoUnit.DAYS);
        LocalDateTime truncated = switch (unit) {
            case "microseconds" -> time;
            case "milliseconds" -> time.truncatedTo(ChronoUnit.MILLIS);
            case "second" -> time.truncatedTo(ChronoUnit.SECONDS);
            case "minute" -> time.truncatedTo(ChronoUnit.MINUTES);
            case "hour" -> time.truncatedTo(ChronoUnit.HOURS);
            case "day" -> day;
            case "week" -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case "month" -> day.withDayOfMonth(1);
            case "quarter" -> day.withDayOfMonth(1).withMonth((time.getMonthValue() - 1) / 3 * 3 + 1);
            case "year" -> day.withDayOfYear(1);
            case "decade" -> day.withDayOfYear(1).withYear(Math.floorDiv(time.getYear(), 10) * 10);
            case "century" -> day.withDayOfYear(1).withYear(Math.floorDiv(time.getYear() - 1, 100) * 100 + 1);
            case "millennium" -> day.withDayOfYear(1).withYear(Math.floorDiv(time.getYear() - 1, 1000) * 1000 + 1);
            default -> throw new InvalidInputException("unit \"" + unit + "\" not supported for type timestamp",
                InvalidInputException.Reason.UNSUPPORTED);
        };
        return truncated.toInstant(ZoneOffset.UTC).toEpochMilli();
    }
}
