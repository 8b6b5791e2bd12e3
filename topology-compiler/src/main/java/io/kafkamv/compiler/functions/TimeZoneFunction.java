package io.kafkamv.compiler.functions;

import java.lang.reflect.Method;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.kafkamv.compiler.types.InvalidInputException;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.ReflectiveCallNotNullImplementor;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code ts AT TIME ZONE zone}, parsed into {@code timezone(zone, ts)} as PostgreSQL names it: a
 * timestamp read as the wall-clock time in the zone is a timestamptz, a timestamptz is the zone's wall-clock time
 * then, a timestamp. A zone is a name of the time zone database, in any case ({@code 'America/New_York'},
 * {@code 'utc'}); PostgreSQL's abbreviations ({@code 'EST'}, {@code 'CET'}) and POSIX offsets ({@code '+05'}, which
 * PostgreSQL reads as five hours west) are refused rather than read another way than PostgreSQL reads them.
 */
public final class TimeZoneFunction implements ScalarFunction, ImplementableFunction {

    public static final String NAME = "timezone";

    private static final Map<String, ZoneId> ZONES = ZoneId.getAvailableZoneIds().stream()
        .filter(id -> id.contains("/") || id.equals("UTC") || id.equals("GMT"))
        .collect(Collectors.toUnmodifiableMap(id -> id.toLowerCase(Locale.ROOT), ZoneId::of, (a, b) -> a));

    private final SqlTypeName from;
    private final SqlTypeName to;
    private final Method method;

    private TimeZoneFunction(SqlTypeName from, SqlTypeName to, String method) {
        this.from = from;
        this.to = to;
        try {
            this.method = TimeZoneFunction.class.getMethod(method, String.class, long.class);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void addTo(SchemaPlus schema) {
        schema.add(NAME, new TimeZoneFunction(SqlTypeName.TIMESTAMP, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, "ofLocal"));
        schema.add(NAME, new TimeZoneFunction(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, SqlTypeName.TIMESTAMP, "ofInstant"));
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return List.of(FunctionParameters.of(0, "zone", SqlTypeName.VARCHAR), FunctionParameters.of(1, "value", from));
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        return types.createTypeWithNullability(types.createSqlType(to, 3), true);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor(new ReflectiveCallNotNullImplementor(method), NullPolicy.STRICT, false);
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
