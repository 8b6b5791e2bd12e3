package io.kafkamv.compiler.postgres;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.types.PostgresInterval;
import io.kafkamv.compiler.types.PostgresTextOutput;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * A cast to text writes the value as PostgreSQL's output does ({@link PostgresTextOutput}), not as Java or Calcite
 * write it: {@code '2026-01-01 00:01:30.5'::timestamp::text} kept no fraction of a second, {@code true::text} was
 * TRUE, {@code 1e20::float8::text} was 1.0E20 and {@code (0 * 2.5)::text} was .0 and {@code interval '1 second'::text} +0 00:00:01.000. Only casts to text of any length change; a cast to
 * {@code varchar(n)} is left to Calcite.
 */
public final class TextCasts extends RexShuttle {

    /** The method that writes a value of each type as text, by the type. */
    private static final Map<SqlTypeName, SqlUserDefinedFunction> BY_TYPE = Map.of(
        SqlTypeName.TIMESTAMP, text("timestampText"),
        SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, text("timestamptzText"),
        SqlTypeName.BOOLEAN, text("booleanText"),
        SqlTypeName.DOUBLE, text("doubleText"),
        SqlTypeName.DECIMAL, text("numericText"),
        SqlTypeName.REAL, text("realText"),
        SqlTypeName.FLOAT, text("realText"));

    private static final SqlUserDefinedFunction DAY_TIME_INTERVAL = text("dayTimeIntervalText");
    private static final SqlUserDefinedFunction YEAR_MONTH_INTERVAL = text("yearMonthIntervalText");

    private final RexBuilder rexBuilder;

    private static SqlUserDefinedFunction text(String method) {
        return JavaFunctions.operator(method, TextCasts.class, method);
    }

    public TextCasts(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexNode visited = super.visitCall(call);
        if (!(visited instanceof RexCall cast) || cast.getKind() != SqlKind.CAST
            || !SqlTypeFamily.CHARACTER.contains(cast.getType())
            || cast.getType().getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED) {
            return visited;
        }
        RexNode operand = cast.getOperands().get(0);
        SqlTypeFamily family = operand.getType().getSqlTypeName().getFamily();
        SqlUserDefinedFunction function = family == SqlTypeFamily.INTERVAL_DAY_TIME ? DAY_TIME_INTERVAL
            : family == SqlTypeFamily.INTERVAL_YEAR_MONTH ? YEAR_MONTH_INTERVAL
            : BY_TYPE.get(operand.getType().getSqlTypeName());
        return function == null ? visited : rexBuilder.makeCall(cast.getType(), function, List.of(operand));
    }

    /** Called by the generated code, as are the others; public for that. A timestamp is its milliseconds. */
    @Strict
    public static String timestampText(long millis) {
        return PostgresTextOutput.format(LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000),
            Math.floorMod(millis, 1000) * 1_000_000, ZoneOffset.UTC));
    }

    @Strict
    public static String timestamptzText(long millis) {
        return PostgresTextOutput.format(OffsetDateTime.ofInstant(java.time.Instant.ofEpochMilli(millis), ZoneOffset.UTC));
    }

    /** A day-time interval is its milliseconds. */
    @Strict
    public static String dayTimeIntervalText(long millis) {
        return PostgresInterval.format(millis);
    }

    /** A year-month interval is its months. */
    @Strict
    public static String yearMonthIntervalText(int months) {
        return new PostgresInterval(months, 0).text();
    }

    @Strict
    public static String booleanText(boolean value) {
        return value ? "true" : "false";
    }

    /** Calcite wrote a zero with decimals as .0; PostgreSQL writes 0.0. */
    @Strict
    public static String numericText(java.math.BigDecimal value) {
        return PostgresTextOutput.format(value);
    }

    @Strict
    public static String doubleText(double value) {
        return PostgresTextOutput.format(value);
    }

    @Strict
    public static String realText(float value) {
        return PostgresTextOutput.format(value);
    }
}
