package io.kafkamv.service.statement;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalTime;
import java.time.ZoneOffset;

import io.kafkamv.compiler.postgres.UnconstrainedNumerics;
import io.kafkamv.compiler.types.InvalidInputException;
import io.kafkamv.compiler.types.PostgresDatetimes;
import io.kafkamv.compiler.types.PostgresInterval;
import io.kafkamv.compiler.types.PostgresTextInput;
import io.kafkamv.connectors.format.JsonbText;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlErrors;
import io.kafkamv.service.error.SqlState;

/** Values as a query returns them (JDBC's Java types) converted to how a column stores them. */
public final class JdbcValues {

    /** PostgreSQL's most digits before a numeric's decimal point. */
    private static final int MAX_NUMERIC_DIGITS = 131_072;

    private JdbcValues() {
    }

    /** @param relation the name of the column's table, for PostgreSQL's message when the column refuses a null */
    public static Object toColumn(Object value, Column column, String relation) {
        if (value == null) {
            if (!column.nullable()) {
                throw SqlError.of(SqlState.NOT_NULL_VIOLATION, "null value in column \"" + column.name()
                    + "\" of relation \"" + relation + "\" violates not-null constraint");
            }
            return null;
        }
        SqlType type = column.type();
        try {
            return switch (type) {
                case BOOLEAN -> value instanceof Boolean b ? b : PostgresTextInput.bool(notNumber(value, column).toString());
                case SMALLINT -> Math.toIntExact(checkedLong(notBoolean(value, column), type, Short.MIN_VALUE, Short.MAX_VALUE));
                case INTEGER -> Math.toIntExact(checkedLong(notBoolean(value, column), type, Integer.MIN_VALUE, Integer.MAX_VALUE));
                case BIGINT -> checkedLong(notBoolean(value, column), type, Long.MIN_VALUE, Long.MAX_VALUE);
                case REAL -> number(notBoolean(value, column)).floatValue();
                case DOUBLE -> number(notBoolean(value, column)).doubleValue();
                case DECIMAL -> numeric(value instanceof BigDecimal d ? d
                    // A float's 15 significant digits (6 for a real), as PostgreSQL's float8_numeric: 1e-05 is 0.00001.
                    : value instanceof Double || value instanceof Float ? UnconstrainedNumerics.toNumeric(value)
                    : new BigDecimal(notBoolean(value, column).toString().trim()), column);
                case VARCHAR -> value.toString();
                case JSONB -> JsonbText.of(value.toString());
                case DATE -> value instanceof java.sql.Date date ? (int) date.toLocalDate().toEpochDay()
                    : (int) PostgresDatetimes.parse(value.toString(), type).toLocalDate().toEpochDay();
                case TIME -> value instanceof java.sql.Time time ? time.toLocalTime().toSecondOfDay() * 1000
                    : (int) (LocalTime.parse(value.toString()).toNanoOfDay() / 1_000_000);
                case TIMESTAMP, TIMESTAMPTZ -> (value instanceof java.sql.Timestamp timestamp ? timestamp.toLocalDateTime()
                    : PostgresDatetimes.parse(value.toString(), type)).toInstant(ZoneOffset.UTC).toEpochMilli();
                case INTERVAL -> intervalMillis(value);
                case BYTEA -> value instanceof byte[] bytes ? bytes : PostgresTextInput.bytea(value.toString());
            };
        } catch (InvalidInputException e) {
            throw SqlError.of(SqlErrors.stateOf(e.reason()), e.getMessage());
        } catch (RuntimeException e) {
            if (e instanceof SqlError error) {
                throw error;
            }
            throw SqlError.of(SqlState.INVALID_TEXT_REPRESENTATION,
                "invalid input syntax for type " + type.postgresName() + ": \"" + value + "\"");
        }
    }

    /**
     * An interval column's value in milliseconds: kafka-mv's intervals are days to seconds, so one with months
     * or years (which have no fixed length) is refused rather than stored as some number of days.
     */
    private static long intervalMillis(Object value) {
        PostgresInterval interval = value instanceof Number millis ? new PostgresInterval(0, millis.longValue())
            : value instanceof PostgresInterval given ? given : PostgresInterval.parse(value.toString());
        if (interval.months() != 0) {
            throw SqlError.at(SqlState.FEATURE_NOT_SUPPORTED, "an interval column holds days, hours, minutes and seconds: \""
                + value + "\" has months", 0, "write months as days, as in '30 days'");
        }
        return interval.millis();
    }

    /** A numeric for the column: rounded to its declared scale, and refused if it has too many digits for it. */
    private static BigDecimal numeric(BigDecimal value, Column column) {
        if ((long) value.precision() - value.scale() > MAX_NUMERIC_DIGITS) {
            // Before any rescaling: 1e300000000 would be a number of a billion bits.
            throw SqlError.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
        }
        if (column.numeric() == null) {
            return value.scale() < 0 ? value.setScale(0) : value;
        }
        try {
            return column.numeric().apply(value);
        } catch (ArithmeticException e) {
            throw SqlError.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, e.getMessage()).withDetail(column.numeric().limit());
        }
    }

    /**
     * An integer column's value, rounded as PostgreSQL assigns one: a numeric half away from zero (2.5 is 3), a float
     * half to even (2.5 is 2), text read as an integer's input (' 42 ' is 42, '2.5' is refused); then range-checked.
     */
    private static long checkedLong(Object value, SqlType type, long min, long max) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            // The common case, without a BigDecimal per value: an INSERT of generated rows spent a tenth of its time here.
            long exact = ((Number) value).longValue();
            if (exact < min || exact > max) {
                throw outOfRange(type);
            }
            return exact;
        }
        if (value instanceof String text) {
            return Long.parseLong(PostgresTextInput.toCalcite(text, type).orElseThrow());
        }
        BigDecimal rounded;
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (Double.isNaN(number) || Double.isInfinite(number)) {
                throw outOfRange(type);
            }
            rounded = BigDecimal.valueOf(Math.rint(number));
        } else {
            Number number = number(value);
            BigDecimal exact = number instanceof BigDecimal d ? d : new BigDecimal(number.toString());
            long integerDigits = (long) exact.precision() - exact.scale();
            if (integerDigits > 19) {
                throw outOfRange(type);
            }
            // Under 0.1: rounds to 0, without the rescaling of a scale as large as 1e-300000000's.
            rounded = integerDigits < 0 ? BigDecimal.ZERO : exact.setScale(0, RoundingMode.HALF_UP);
        }
        if (rounded.compareTo(BigDecimal.valueOf(min)) < 0 || rounded.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw outOfRange(type);
        }
        return rounded.longValueExact();
    }

    private static SqlError outOfRange(SqlType type) {
        return SqlError.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, type.postgresName() + " out of range");
    }

    /** PostgreSQL assigns no boolean to a number column, nor a number to a boolean one, without a cast. */
    private static Object notBoolean(Object value, Column column) {
        if (value instanceof Boolean) {
            throw mismatch(column, "boolean");
        }
        return value;
    }

    private static Object notNumber(Object value, Column column) {
        if (value instanceof Number number) {
            throw mismatch(column, number instanceof BigDecimal ? "numeric"
                : number instanceof Double || number instanceof Float ? "double precision"
                : number instanceof Long ? "bigint" : "integer");
        }
        return value;
    }

    private static SqlError mismatch(Column column, String valueType) {
        return SqlError.at(SqlState.DATATYPE_MISMATCH, "column \"" + column.name() + "\" is of type "
            + column.type().postgresName() + " but expression is of type " + valueType, 0,
            "You will need to rewrite or cast the expression.");
    }

    private static Number number(Object value) {
        return value instanceof Number number ? number : new BigDecimal(value.toString().trim());
    }
}
