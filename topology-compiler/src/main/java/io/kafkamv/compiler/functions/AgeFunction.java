package io.kafkamv.compiler.functions;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import io.kafkamv.compiler.types.PostgresInterval;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

import static io.kafkamv.compiler.functions.MethodFunction.parameter;

/**
 * PostgreSQL's {@code age(later, earlier)} and {@code age(earlier)} (from today's midnight): the difference in years,
 * months, days and time, field by field, where a negative day count borrows the days of the earlier timestamp's month
 * ({@code age('2024-03-01', '2024-01-15')} is {@code 1 mon 17 days}). Calcite's {@code AGE} borrowed other months'
 * days (it said {@code 1 mon 15 days}). The result is PostgreSQL's text of the interval: kafka-mv's intervals hold
 * either months or days, not both.
 */
public final class AgeFunction {

    public static final String NAME = "age";

    private static final long DAY = 86_400_000L;

    private AgeFunction() {
    }

    /** {@code age(later, earlier)}, and {@code age(earlier)}: from midnight today (UTC, every session's time zone). */
    static void addTo(SchemaPlus schema) {
        schema.add(NAME, MethodFunction.of(AgeFunction.class, "age", SqlTypeName.VARCHAR,
            parameter("later", SqlTypeName.TIMESTAMP), parameter("earlier", SqlTypeName.TIMESTAMP)));
        schema.add(NAME, MethodFunction.of(AgeFunction.class, "ageFromToday", SqlTypeName.VARCHAR,
            parameter("earlier", SqlTypeName.TIMESTAMP)));
    }

    /** Called by the generated code with Calcite's values of two timestamps: milliseconds since 1970-01-01. */
    public static String age(long later, long earlier) {
        LocalDateTime t1 = dateTime(later);
        LocalDateTime t2 = dateTime(earlier);
        int sign = later < earlier ? -1 : 1;
        long millis = sign * (t1.getNano() / 1_000_000 - t2.getNano() / 1_000_000);
        long seconds = sign * (t1.getSecond() - t2.getSecond());
        long minutes = sign * (t1.getMinute() - t2.getMinute());
        long hours = sign * (t1.getHour() - t2.getHour());
        long days = sign * (t1.getDayOfMonth() - t2.getDayOfMonth());
        long months = sign * (t1.getMonthValue() - t2.getMonthValue());
        long years = sign * (t1.getYear() - t2.getYear());
        // PostgreSQL's timestamp_age: carry each negative field into the next, a day from the earlier one's month.
        LocalDateTime earlierOne = sign < 0 ? t1 : t2;
        for (; millis < 0; millis += 1000) {
            seconds--;
        }
        for (; seconds < 0; seconds += 60) {
            minutes--;
        }
        for (; minutes < 0; minutes += 60) {
            hours--;
        }
        for (; hours < 0; hours += 24) {
            days--;
        }
        for (; days < 0; days += earlierOne.toLocalDate().lengthOfMonth()) {
            months--;
        }
        for (; months < 0; months += 12) {
            years--;
        }
        long time = ((days * 24 + hours) * 60 + minutes) * 60_000 + seconds * 1000 + millis;
        return new PostgresInterval(Math.toIntExact(sign * (years * 12 + months)), sign * time).text();
    }

    public static String ageFromToday(long earlier) {
        return age(LocalDate.now(ZoneOffset.UTC).toEpochDay() * DAY, earlier);
    }

    private static LocalDateTime dateTime(long millis) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), Math.floorMod(millis, 1000) * 1_000_000,
            ZoneOffset.UTC);
    }
}
