package io.kafkamv.compiler.functions;

import java.lang.reflect.Method;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Map;

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
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code date_trunc('unit', timestamp)}. Calcite's grammar turns every {@code date_trunc(...)}
 * into its BigQuery operator, whose checker takes only {@code date_trunc(ts, MINUTE)}; validation then
 * looks the call up again by the name {@code DATE_TRUNC}, and finds this function in the schema. It
 * works on Calcite's own timestamp value (wall-clock milliseconds read as UTC), so no time zone of the
 * JVM comes into it.
 */
public final class DateTruncFunction implements ScalarFunction, ImplementableFunction {

    private static final Method TRUNCATE;

    static {
        try {
            TRUNCATE = DateTruncFunction.class.getMethod("truncate", String.class, long.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SqlTypeName type;

    /**
     * For a timestamp, or a timestamptz (truncated at UTC, the time zone of every session): each gives its own
     * type back, as in PostgreSQL. Both are the same milliseconds to {@link #truncate}.
     */
    public DateTruncFunction(SqlTypeName type) {
        this.type = type;
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return List.of(FunctionParameters.of(0, "field", SqlTypeName.VARCHAR), FunctionParameters.of(1, "source", type));
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        return types.createTypeWithNullability(types.createSqlType(type, 3), true);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor(new ReflectiveCallNotNullImplementor(TRUNCATE), NullPolicy.STRICT, false);
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
