package io.kafkamv.compiler.functions;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.IsoFields;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.kafkamv.compiler.types.InvalidInputException;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.ReflectiveCallNotNullImplementor;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code EXTRACT(field FROM source)}, a numeric, and {@code date_part('field', source)}, a double, of a
 * timestamp, timestamptz, date, time or interval. Calcite's EXTRACT is a bigint, which cut {@code 45.5} seconds to
 * 45 and numbered days of the week from 1; its date_part did the same. The parser names both calls after these
 * functions ({@link #EXTRACT}, {@link #DATE_PART}), one per type of source, each working on Calcite's own value of
 * its type (milliseconds of wall-clock time read as UTC, days, milliseconds of the day), so no time zone of the JVM
 * comes into it.
 */
public final class DatePartFunction implements ScalarFunction, ImplementableFunction {

    public static final String EXTRACT = "kafka_mv_extract";
    public static final String DATE_PART = "kafka_mv_date_part";

    private static final long DAY = 86_400_000L;

    /** The types a field is taken from, each with Calcite's type and the method that takes the field of its value. */
    private enum Source {
        TIMESTAMP(SqlTypeName.TIMESTAMP, "ofTimestamp", long.class),
        TIMESTAMPTZ(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, "ofTimestamptz", long.class),
        DATE(SqlTypeName.DATE, "ofDate", int.class),
        TIME(SqlTypeName.TIME, "ofTime", int.class),
        INTERVAL(SqlTypeName.INTERVAL_DAY_SECOND, "ofInterval", long.class);

        private final SqlTypeName type;
        private final Method method;

        Source(SqlTypeName type, String method, Class<?> value) {
            this.type = type;
            try {
                this.method = DatePartFunction.class.getMethod(method, String.class, value);
            } catch (NoSuchMethodException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    private final Source source;
    private final boolean numeric;

    private DatePartFunction(Source source, boolean numeric) {
        this.source = source;
        this.numeric = numeric;
    }

    /** Adds EXTRACT's and date_part's function for each type of source. */
    public static void addTo(SchemaPlus schema) {
        for (Source source : Source.values()) {
            schema.add(EXTRACT, new DatePartFunction(source, true));
            schema.add(DATE_PART, new DatePartFunction(source, false));
        }
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return List.of(FunctionParameters.of(0, "field", SqlTypeName.VARCHAR),
            FunctionParameters.of(1, "source", types -> source.type == SqlTypeName.INTERVAL_DAY_SECOND
                ? types.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY, TimeUnit.SECOND, SqlParserPos.ZERO))
                : types.createSqlType(source.type)));
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        return types.createTypeWithNullability(numeric
            ? types.createSqlType(SqlTypeName.DECIMAL)
            : types.createSqlType(SqlTypeName.DOUBLE), true);
    }

    @Override
    public CallImplementor getImplementor() {
        ReflectiveCallNotNullImplementor call = new ReflectiveCallNotNullImplementor(source.method);
        if (numeric) {
            return RexImpTable.createImplementor(call, NullPolicy.STRICT, false);
        }
        return RexImpTable.createImplementor((translator, rexCall, operands) ->
            Expressions.call(call.implement(translator, rexCall, operands), "doubleValue"), NullPolicy.STRICT, false);
    }

    public static BigDecimal ofTimestamp(String field, long millis) {
        return ofDateTime(unit(field), millis, "timestamp without time zone");
    }

    public static BigDecimal ofTimestamptz(String field, long millis) {
        String unit = unit(field);
        if (unit.startsWith("timezone")) {
            return BigDecimal.ZERO; // every session is at UTC
        }
        return ofDateTime(unit, millis, "timestamp with time zone");
    }

    public static BigDecimal ofDate(String field, int days) {
        String unit = unit(field);
        return switch (unit) {
            case "microseconds", "milliseconds", "second", "minute", "hour", "timezone", "timezone_hour", "timezone_minute" ->
                throw unsupported(field, "date");
            case "epoch" -> BigDecimal.valueOf(days * 86_400L);
            default -> ofDateTime(unit, days * DAY, "date");
        };
    }

    public static BigDecimal ofTime(String field, int millisOfDay) {
        String unit = unit(field);
        return switch (unit) {
            case "microseconds", "milliseconds", "second", "minute", "hour" -> timeField(unit, millisOfDay);
            case "epoch" -> BigDecimal.valueOf(millisOfDay, 3).setScale(6);
            default -> throw unsupported(field, "time without time zone");
        };
    }

    public static BigDecimal ofInterval(String field, long millis) {
        String unit = unit(field);
        long days = millis / DAY;
        long time = millis % DAY;
        return switch (unit) {
            case "microseconds", "milliseconds", "second", "minute" -> timeField(unit, time);
            case "hour" -> BigDecimal.valueOf(time / 3_600_000L);
            case "day" -> BigDecimal.valueOf(days);
            case "month", "year", "quarter", "decade", "century", "millennium" -> BigDecimal.ZERO;
            case "epoch" -> BigDecimal.valueOf(millis, 3).setScale(6);
            default -> throw unsupported(field, "interval");
        };
    }

    private static BigDecimal ofDateTime(String unit, long millis, String type) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L),
            (int) Math.floorMod(millis, 1000L) * 1_000_000, ZoneOffset.UTC);
        LocalDate date = time.toLocalDate();
        int year = time.getYear();
        return switch (unit) {
            case "microseconds", "milliseconds", "second" -> timeField(unit, Math.floorMod(millis, 60_000L));
            case "minute" -> BigDecimal.valueOf(time.getMinute());
            case "hour" -> BigDecimal.valueOf(time.getHour());
            case "day" -> BigDecimal.valueOf(time.getDayOfMonth());
            case "week" -> BigDecimal.valueOf(date.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            case "month" -> BigDecimal.valueOf(time.getMonthValue());
            case "quarter" -> BigDecimal.valueOf((time.getMonthValue() - 1) / 3 + 1);
            case "year" -> BigDecimal.valueOf(year);
            case "decade" -> BigDecimal.valueOf(Math.floorDiv(year, 10));
            case "century" -> BigDecimal.valueOf(year > 0 ? (year + 99) / 100 : -((99 - (year - 1)) / 100));
            case "millennium" -> BigDecimal.valueOf(year > 0 ? (year + 999) / 1000 : -((999 - (year - 1)) / 1000));
            case "dow" -> BigDecimal.valueOf(time.getDayOfWeek().getValue() % 7);
            case "isodow" -> BigDecimal.valueOf(time.getDayOfWeek().getValue());
            case "doy" -> BigDecimal.valueOf(time.getDayOfYear());
            case "isoyear" -> BigDecimal.valueOf(date.get(IsoFields.WEEK_BASED_YEAR));
            case "epoch" -> BigDecimal.valueOf(millis, 3).setScale(6);
            default -> throw unsupported(unit, type);
        };
    }

    /** A field of a time within a minute (seconds and below) or a time of day, with PostgreSQL's scale. */
    private static BigDecimal timeField(String unit, long millis) {
        return switch (unit) {
            case "microseconds" -> BigDecimal.valueOf(millis % 60_000L * 1000L);
            case "milliseconds" -> BigDecimal.valueOf(millis % 60_000L).setScale(3);
            case "second" -> BigDecimal.valueOf(millis % 60_000L, 3).setScale(6);
            case "minute" -> BigDecimal.valueOf(millis / 60_000L % 60);
            case "hour" -> BigDecimal.valueOf(millis / 3_600_000L);
            default -> throw new IllegalStateException(unit);
        };
    }

    private static String unit(String field) {
        String unit = DatetimeUnits.of(field);
        if (unit == null) {
            throw new InvalidInputException("unit \"" + field + "\" not recognized",
                InvalidInputException.Reason.INVALID_PARAMETER);
        }
        return unit;
    }

    private static InvalidInputException unsupported(String field, String type) {
        return new InvalidInputException("unit \"" + field.strip().toLowerCase(Locale.ROOT)
            + "\" not supported for type " + type, InvalidInputException.Reason.UNSUPPORTED);
    }
}
