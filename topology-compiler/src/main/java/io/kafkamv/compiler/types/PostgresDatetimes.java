package io.kafkamv.compiler.types;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.connectors.schema.SqlType;

/**
 * PostgreSQL's input forms of dates and timestamps, written the one way Calcite reads them. PostgreSQL
 * takes ISO 8601 as clients send it ({@code 2026-01-01T00:01:00}, with {@code Z} or an offset), a
 * timestamp where a date is asked for, and a time zone after a {@code timestamptz}; Calcite takes
 * {@code yyyy-MM-dd HH:mm:ss} and, for a timestamp with a time zone, the zone after a space. A
 * {@code timestamptz} without a zone is in UTC, the time zone of every session.
 */
public final class PostgresDatetimes {

    private static final Pattern INPUT = Pattern.compile(
        "\\s*(\\d{4,})-(\\d{1,2})-(\\d{1,2})"
            + "(?:(?:[Tt]|\\s+)(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?)?"
            + "\\s*(?<zone>[Zz]|[+-]\\d{1,2}(?::?\\d{2})?|[A-Za-z][A-Za-z0-9_/+-]*)?\\s*");
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT);
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    private PostgresDatetimes() {
    }

    /** Whether this type's text input is read here: dates, timestamps and timestamps with a time zone. */
    public static boolean reads(SqlType type) {
        return type == SqlType.DATE || type == SqlType.TIMESTAMP || type == SqlType.TIMESTAMPTZ;
    }

    /**
     * The text in Calcite's form for {@code type}.
     *
     * @throws InvalidInputException if PostgreSQL would refuse it too
     */
    public static String toCalcite(String text, SqlType type) {
        LocalDateTime value = parse(text, type);
        return switch (type) {
            case DATE -> DATE.format(value);
            case TIMESTAMP -> SECONDS.format(value) + fraction(value);
            case TIMESTAMPTZ -> SECONDS.format(value) + fraction(value) + " UTC";
            default -> throw new IllegalArgumentException("not a date or timestamp type: " + type);
        };
    }

    /**
     * The value the text stands for: a date at midnight, a timestamp as written (an offset in it is ignored,
     * as PostgreSQL ignores it), a timestamp with a time zone as the UTC time of the same instant.
     *
     * @throws InvalidInputException if PostgreSQL would refuse it too
     */
    public static LocalDateTime parse(String text, SqlType type) {
        Matcher m = INPUT.matcher(text);
        if (!m.matches()) {
            throw new InvalidInputException("invalid input syntax for type " + typeName(type) + ": \"" + text + "\"",
                InvalidInputException.Reason.DATETIME_SYNTAX);
        }
        try {
            LocalDate date = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)));
            LocalTime time = m.group(4) == null ? LocalTime.MIDNIGHT : LocalTime.of(Integer.parseInt(m.group(4)),
                Integer.parseInt(m.group(5)), m.group(6) == null ? 0 : Integer.parseInt(m.group(6)),
                m.group(7) == null ? 0 : Integer.parseInt((m.group(7) + "00000000").substring(0, 9)));
            LocalDateTime local = LocalDateTime.of(date, time);
            ZoneId zone = zone(m.group("zone"));
            return switch (type) {
                case DATE -> local.toLocalDate().atStartOfDay();
                case TIMESTAMPTZ -> local.atZone(zone).withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
                default -> local;
            };
        } catch (DateTimeException e) {
            throw new InvalidInputException("date/time field value out of range: \"" + text + "\"",
                InvalidInputException.Reason.DATETIME_FIELD_OUT_OF_RANGE);
        }
    }

    /** The zone written after the time: UTC if none; PostgreSQL checks it even where it is then ignored. */
    private static ZoneId zone(String zone) {
        if (zone == null || zone.equalsIgnoreCase("z")) {
            return ZoneOffset.UTC;
        }
        if (zone.charAt(0) == '+' || zone.charAt(0) == '-') {
            String digits = zone.substring(1).replace(":", "");
            int hours = Integer.parseInt(digits.length() <= 2 ? digits : digits.substring(0, digits.length() - 2));
            int minutes = digits.length() <= 2 ? 0 : Integer.parseInt(digits.substring(digits.length() - 2));
            int sign = zone.charAt(0) == '-' ? -1 : 1;
            return ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
        }
        try {
            return ZoneId.of(zone.equalsIgnoreCase("utc") ? "UTC" : zone);
        } catch (DateTimeException e) {
            throw new InvalidInputException("time zone \"" + zone.toLowerCase(Locale.ROOT) + "\" not recognized",
                InvalidInputException.Reason.INVALID_PARAMETER);
        }
    }

    private static String fraction(LocalDateTime value) {
        if (value.getNano() == 0) {
            return "";
        }
        String nanos = String.format(Locale.ROOT, "%09d", value.getNano());
        return "." + nanos.replaceAll("0+$", "");
    }

    private static String typeName(SqlType type) {
        return switch (type) {
            case DATE -> "date";
            case TIMESTAMPTZ -> "timestamp with time zone";
            default -> "timestamp";
        };
    }
}
