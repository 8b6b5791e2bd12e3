package io.kafkamv.compiler.functions;

import java.lang.reflect.Method;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.IntStream;

import io.kafkamv.compiler.types.PostgresInterval;
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
 * PostgreSQL's {@code age(later, earlier)} and {@code age(earlier)} (from today's midnight): the difference in years,
 * months, days and time, field by field, where a negative day count borrows the days of the earlier timestamp's month
 * ({@code age('2024-03-01', '2024-01-15')} is {@code 1 mon 17 days}). Calcite's {@code AGE} borrowed other months'
 * days (it said {@code 1 mon 15 days}). The result is PostgreSQL's text of the interval: kafka-mv's intervals hold
 * either months or days, not both.
 */
public final class AgeFunction implements ScalarFunction, ImplementableFunction {

    public static final String NAME = "age";

    private static final long DAY = 86_400_000L;
    private final Method method;
    private final int arity;

    private AgeFunction(String method, int arity) {
        try {
            this.method = AgeFunction.class.getMethod(method, IntStream.range(0, arity).mapToObj(i -> long.class)
                .toArray(Class<?>[]::new));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        this.arity = arity;
    }

    /** {@code age(later, earlier)}. */
    static AgeFunction between() {
        return new AgeFunction("age", 2);
    }

    /** {@code age(earlier)}: from midnight today (UTC, every session's time zone). */
    static AgeFunction fromToday() {
        return new AgeFunction("ageFromToday", 1);
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return IntStream.range(0, arity)
            .mapToObj(i -> FunctionParameters.of(i, i == arity - 1 ? "earlier" : "later", SqlTypeName.TIMESTAMP))
            .toList();
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        return types.createTypeWithNullability(types.createSqlType(SqlTypeName.VARCHAR), true);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor(new ReflectiveCallNotNullImplementor(method), NullPolicy.STRICT, false);
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
