package io.kafkamv.compiler.functions;

import java.util.Locale;
import java.util.Map;

/**
 * PostgreSQL's names of date and time units and fields, with the plurals and abbreviations it accepts, as
 * {@code date_trunc}, {@code date_part} and {@code EXTRACT} take them: one spelling each in what they give back.
 */
final class DatetimeUnits {

    private static final Map<String, String> NAMES = Map.ofEntries(
        Map.entry("microsecond", "microseconds"), Map.entry("microseconds", "microseconds"), Map.entry("us", "microseconds"),
        Map.entry("usec", "microseconds"), Map.entry("usecs", "microseconds"),
        Map.entry("millisecond", "milliseconds"), Map.entry("milliseconds", "milliseconds"), Map.entry("ms", "milliseconds"),
        Map.entry("msec", "milliseconds"), Map.entry("msecs", "milliseconds"),
        Map.entry("second", "second"), Map.entry("seconds", "second"), Map.entry("sec", "second"), Map.entry("secs", "second"),
        Map.entry("minute", "minute"), Map.entry("minutes", "minute"), Map.entry("min", "minute"), Map.entry("mins", "minute"),
        Map.entry("hour", "hour"), Map.entry("hours", "hour"), Map.entry("hr", "hour"), Map.entry("hrs", "hour"),
        Map.entry("day", "day"), Map.entry("days", "day"),
        Map.entry("week", "week"), Map.entry("weeks", "week"),
        Map.entry("month", "month"), Map.entry("months", "month"), Map.entry("mon", "month"), Map.entry("mons", "month"),
        Map.entry("quarter", "quarter"), Map.entry("qtr", "quarter"),
        Map.entry("year", "year"), Map.entry("years", "year"), Map.entry("yr", "year"), Map.entry("yrs", "year"),
        Map.entry("decade", "decade"), Map.entry("decades", "decade"),
        Map.entry("century", "century"), Map.entry("centuries", "century"),
        Map.entry("millennium", "millennium"), Map.entry("millennia", "millennium"),
        Map.entry("dow", "dow"), Map.entry("isodow", "isodow"), Map.entry("doy", "doy"), Map.entry("isoyear", "isoyear"),
        Map.entry("epoch", "epoch"), Map.entry("timezone", "timezone"), Map.entry("timezone_hour", "timezone_hour"),
        Map.entry("timezone_minute", "timezone_minute"));

    private DatetimeUnits() {
    }

    /** The unit a name means, or null if PostgreSQL knows no such unit. */
    static String of(String name) {
        return NAMES.get(name.strip().toLowerCase(Locale.ROOT));
    }
}
