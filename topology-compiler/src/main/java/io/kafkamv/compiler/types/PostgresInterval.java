package io.kafkamv.compiler.types;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An interval as PostgreSQL reads and prints it, in the two parts Calcite keeps apart: whole months (years and
 * months) and milliseconds (days and times; kafka-mv's interval columns hold these). PostgreSQL keeps days as a
 * third part, so {@code interval '25 hours'} prints as {@code 25:00:00} there and as {@code 1 day 01:00:00} here, the
 * form PostgreSQL gives the difference of two timestamps.
 */
public record PostgresInterval(int months, long millis) {

    private static final long DAY = 86_400_000L;
    private static final Pattern TIME = Pattern.compile("([+-]?)(\\d+):(\\d+)(?::(\\d+(?:\\.\\d*)?))?");
    private static final Pattern QUANTITY = Pattern.compile("([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))\\s*([a-z]*)");

    /** A unit of PostgreSQL's interval input: how many months, or how many milliseconds, one of it is. */
    private record Unit(int months, double millis) {
    }

    private static final Unit MONTH = new Unit(1, 0);
    private static final Unit YEAR = new Unit(12, 0);
    private static final Unit WEEK = new Unit(0, 7 * DAY);
    private static final Unit DAYS = new Unit(0, DAY);
    private static final Unit HOUR = new Unit(0, 3_600_000);
    private static final Unit MINUTE = new Unit(0, 60_000);
    private static final Unit SECOND = new Unit(0, 1_000);
    private static final Unit MILLISECOND = new Unit(0, 1);
    private static final Unit MICROSECOND = new Unit(0, 0.001);

    private static final Map<String, Unit> UNITS = Map.ofEntries(
        Map.entry("millennium", new Unit(12_000, 0)), Map.entry("millennia", new Unit(12_000, 0)),
        Map.entry("century", new Unit(1_200, 0)), Map.entry("centuries", new Unit(1_200, 0)),
        Map.entry("decade", new Unit(120, 0)), Map.entry("decades", new Unit(120, 0)),
        Map.entry("year", YEAR), Map.entry("years", YEAR), Map.entry("yr", YEAR), Map.entry("yrs", YEAR),
        Map.entry("y", YEAR),
        Map.entry("month", MONTH), Map.entry("months", MONTH), Map.entry("mon", MONTH), Map.entry("mons", MONTH),
        Map.entry("week", WEEK), Map.entry("weeks", WEEK), Map.entry("w", WEEK),
        Map.entry("day", DAYS), Map.entry("days", DAYS), Map.entry("d", DAYS),
        Map.entry("hour", HOUR), Map.entry("hours", HOUR), Map.entry("hr", HOUR), Map.entry("hrs", HOUR),
        Map.entry("h", HOUR),
        Map.entry("minute", MINUTE), Map.entry("minutes", MINUTE), Map.entry("min", MINUTE),
        Map.entry("mins", MINUTE), Map.entry("m", MINUTE),
        Map.entry("second", SECOND), Map.entry("seconds", SECOND), Map.entry("sec", SECOND),
        Map.entry("secs", SECOND), Map.entry("s", SECOND), Map.entry("", SECOND),
        Map.entry("millisecond", MILLISECOND), Map.entry("milliseconds", MILLISECOND),
        Map.entry("ms", MILLISECOND), Map.entry("msec", MILLISECOND), Map.entry("msecs", MILLISECOND),
        Map.entry("microsecond", MICROSECOND), Map.entry("microseconds", MICROSECOND),
        Map.entry("us", MICROSECOND), Map.entry("usec", MICROSECOND), Map.entry("usecs", MICROSECOND));

    /**
     * PostgreSQL's interval input: quantities with units ({@code 1 day 2 hours}, {@code 1.5 years}, {@code 3 mons}),
     * a time ({@code 01:30:00}, {@code -1 day 02:00}), {@code @} before and {@code ago} after. A fraction of a
     * month is 30 days, as in PostgreSQL; microseconds round to milliseconds, kafka-mv's precision.
     */
    public static PostgresInterval parse(String text) {
        String rest = text.trim().toLowerCase(Locale.ROOT);
        boolean ago = false;
        if (rest.startsWith("@")) {
            rest = rest.substring(1).trim();
        }
        if (rest.endsWith(" ago")) {
            ago = true;
            rest = rest.substring(0, rest.length() - 4).trim();
        }
        if (rest.isEmpty()) {
            throw invalid(text);
        }
        BigDecimal months = BigDecimal.ZERO;
        BigDecimal millis = BigDecimal.ZERO;
        boolean timeSeen = false;
        for (String word : rest.split("\\s+(?=[+-]?[\\d.])")) {
            Matcher time = TIME.matcher(word);
            Matcher quantity = QUANTITY.matcher(word);
            if (time.matches() && !timeSeen) {
                timeSeen = true;
                BigDecimal value = BigDecimal.valueOf(Long.parseLong(time.group(2)) * 3_600_000L
                        + Long.parseLong(time.group(3)) * 60_000L)
                    .add(time.group(4) == null ? BigDecimal.ZERO
                        : new BigDecimal(time.group(4).endsWith(".") ? time.group(4) + "0" : time.group(4))
                            .multiply(BigDecimal.valueOf(1000)));
                millis = millis.add(time.group(1).equals("-") ? value.negate() : value);
            } else if (quantity.matches() && UNITS.containsKey(quantity.group(2))) {
                Unit unit = UNITS.get(quantity.group(2));
                BigDecimal number = new BigDecimal(quantity.group(1).startsWith("+") ? quantity.group(1).substring(1)
                    : quantity.group(1).endsWith(".") ? quantity.group(1) + "0" : quantity.group(1));
                if (unit.months() > 0) {
                    BigDecimal inMonths = number.multiply(BigDecimal.valueOf(unit.months()));
                    BigDecimal whole = inMonths.setScale(0, RoundingMode.DOWN);
                    months = months.add(whole);
                    millis = millis.add(inMonths.subtract(whole).multiply(BigDecimal.valueOf(30 * DAY)));
                } else {
                    millis = millis.add(number.multiply(BigDecimal.valueOf(unit.millis())));
                }
            } else {
                throw invalid(text);
            }
        }
        try {
            int wholeMonths = months.intValueExact();
            long wholeMillis = millis.setScale(0, RoundingMode.HALF_EVEN).longValueExact();
            return ago ? new PostgresInterval(-wholeMonths, -wholeMillis) : new PostgresInterval(wholeMonths, wholeMillis);
        } catch (ArithmeticException e) {
            throw new InvalidInputException("interval out of range", InvalidInputException.Reason.OUT_OF_RANGE);
        }
    }

    private static InvalidInputException invalid(String text) {
        return new InvalidInputException("invalid input syntax for type interval: \"" + text + "\"",
            InvalidInputException.Reason.DATETIME_SYNTAX);
    }

    /** As PostgreSQL prints it: {@code 1 year 2 mons}, {@code 1 day 02:00:00.5}, {@code -1 years -2 mons}. */
    public String text() {
        if (months == 0) {
            return format(millis);
        }
        StringBuilder out = new StringBuilder();
        int years = months / 12;
        int rest = months % 12;
        if (years != 0) {
            out.append(years).append(years == 1 ? " year" : " years");
        }
        if (rest != 0) {
            out.append(out.length() > 0 ? " " : "").append(rest).append(rest == 1 ? " mon" : " mons");
        }
        return millis == 0 ? out.toString() : out.append(' ').append(format(millis)).toString();
    }

    /** The days and time of this many milliseconds as PostgreSQL prints them: {@code 1 day 02:00:00.5}. */
    public static String format(long millis) {
        long days = millis / DAY;
        long time = millis % DAY;
        StringBuilder out = new StringBuilder();
        if (days != 0) {
            out.append(days).append(days == 1 ? " day" : " days");
        }
        if (time != 0 || days == 0) {
            if (out.length() > 0) {
                out.append(' ');
            }
            long abs = Math.abs(time);
            out.append(time < 0 ? "-" : "").append(String.format(Locale.ROOT, "%02d:%02d:%02d",
                abs / 3_600_000, abs / 60_000 % 60, abs / 1_000 % 60));
            if (abs % 1_000 != 0) {
                out.append(String.format(Locale.ROOT, ".%03d", abs % 1_000).replaceAll("0+$", ""));
            }
        }
        return out.toString();
    }
}
