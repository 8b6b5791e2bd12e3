package io.kafkamv.compiler.functions;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.kafkamv.compiler.types.InvalidInputException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

import static io.kafkamv.compiler.functions.MethodFunction.parameter;

/**
 * PostgreSQL's {@code ts AT TIME ZONE zone}, parsed into {@code timezone(zone, ts)} as PostgreSQL names it: a
 * timestamp read as the wall-clock time in the zone is a timestamptz, a timestamptz is the zone's wall-clock time
 * then, a timestamp. A zone is a name of the time zone database, in any case ({@code 'America/New_York'},
 * {@code 'utc'}); PostgreSQL's abbreviations ({@code 'EST'}, {@code 'CET'}) and POSIX offsets ({@code '+05'}, which
 * PostgreSQL reads as five hours west) are refused rather than read another way than PostgreSQL reads them.
 */
public final class TimeZoneFunction {

    public static final String NAME = "timezone";

    private static final Map<String, ZoneId> ZONES = ZoneId.getAvailableZoneIds().stream()
        .filter(id -> id.contains("/") || id.equals("UTC") || id.equals("GMT"))
        .collect(Collectors.toUnmodifiableMap(id -> id.toLowerCase(Locale.ROOT), ZoneId::of, (a, b) -> a));

    private TimeZoneFunction() {
    }

    public static void addTo(SchemaPlus schema) {
        schema.add(NAME, MethodFunction.of(TimeZoneFunction.class, "ofLocal", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
            parameter("zone", SqlTypeName.VARCHAR), parameter("value", SqlTypeName.TIMESTAMP)));
        schema.add(NAME, MethodFunction.of(TimeZoneFunction.class, "ofInstant", SqlTypeName.TIMESTAMP,
            parameter("zone", SqlTypeName.VARCHAR), parameter("value", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)));
    }

    /**
     * A timestamp's wall-clock time in the zone, as an instant: Calcite's values are milliseconds since 1970. A time the
     * clocks pass twice (when they go back) is the later one, in standard time, as PostgreSQL reads it; one they skip is
     * moved forward by the gap, as there.
     */
    public static long ofLocal(String zone, long local) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(local, 1000), Math.floorMod(local, 1000) * 1_000_000, ZoneOffset.UTC)
            .atZone(zone(zone)).withLaterOffsetAtOverlap().toInstant().toEpochMilli();
    }

    /** The zone's wall-clock time at an instant. */
    public static long ofInstant(String zone, long instant) {
        LocalDateTime local = LocalDateTime.ofInstant(Instant.ofEpochMilli(instant), zone(zone));
        return local.toEpochSecond(ZoneOffset.UTC) * 1000 + local.getNano() / 1_000_000;
    }

    private static ZoneId zone(String name) {
        ZoneId zone = ZONES.get(name.trim().toLowerCase(Locale.ROOT));
        if (zone == null) {
            throw new InvalidInputException("time zone \"" + name + "\" not recognized (kafka-mv takes the names of the "
                + "time zone database, such as 'America/New_York' or 'UTC', not abbreviations or offsets)",
                InvalidInputException.Reason.INVALID_PARAMETER);
        }
        return zone;
    }
}
