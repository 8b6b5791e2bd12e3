package io.kafkamv.service.statement;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;

/**
 * A setting PostgreSQL keeps in milliseconds, such as {@code statement_timeout}: read as PostgreSQL reads it (a number,
 * optionally with a unit, {@code 1500}, {@code '5s'}, {@code '10 min'}) and shown as its SHOW shows it (in the largest
 * unit that divides the value exactly: {@code 90s}, {@code 1min}, {@code 1500ms}).
 */
final class TimeSetting {

    private static final Pattern VALUE = Pattern.compile("\\s*(-?(?:\\d+(?:\\.\\d*)?|\\.\\d+))\\s*(\\S*)\\s*");
    private static final List<Unit> UNITS = List.of(new Unit("d", 86_400_000), new Unit("h", 3_600_000),
        new Unit("min", 60_000), new Unit("s", 1_000), new Unit("ms", 1), new Unit("us", 0.001));

    private record Unit(String name, double millis) {
    }

    private TimeSetting() {
    }

    /** The value in milliseconds; 22023 with PostgreSQL's message when it is not one. */
    static long millis(String name, String value) {
        Matcher matcher = VALUE.matcher(value);
        if (!matcher.matches()) {
            throw invalid(name, value, null);
        }
        String unitName = matcher.group(2).isEmpty() ? "ms" : matcher.group(2);
        Unit unit = UNITS.stream().filter(each -> each.name().equals(unitName)).findFirst()
            .orElseThrow(() -> invalid(name, value, "Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\"."));
        double millis = Math.rint(Double.parseDouble(matcher.group(1)) * unit.millis());
        if (millis < 0) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, (long) millis + " ms is outside the valid range for parameter \""
                + name.toLowerCase(Locale.ROOT) + "\" (0 .. " + Integer.MAX_VALUE + ")");
        }
        if (millis > Integer.MAX_VALUE) {
            throw invalid(name, value, "Value exceeds integer range.");
        }
        return (long) millis;
    }

    /** As SHOW prints it. */
    static String show(long millis) {
        if (millis == 0) {
            return "0";
        }
        for (Unit unit : UNITS) {
            if (unit.millis() >= 1 && millis % (long) unit.millis() == 0) {
                return millis / (long) unit.millis() + unit.name();
            }
        }
        throw new IllegalArgumentException("not a whole number of milliseconds: " + millis);
    }

    /** The value as SHOW prints it, after checking it. */
    static String normalized(String name, String value) {
        return show(millis(name, value));
    }

    private static SqlError invalid(String name, String value, String hint) {
        String message = "invalid value for parameter \"" + name.toLowerCase(Locale.ROOT) + "\": \"" + value + "\"";
        return hint == null ? SqlError.of(SqlState.INVALID_PARAMETER_VALUE, message)
            : SqlError.at(SqlState.INVALID_PARAMETER_VALUE, message, 0, hint);
    }
}
