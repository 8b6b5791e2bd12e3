package io.kafkamv.compiler.functions;

import java.lang.reflect.Method;
import java.util.List;

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
 * PostgreSQL's {@code to_timestamp(seconds)}: the timestamptz that many seconds after 1970-01-01 00:00:00 UTC, the
 * form epoch times come in on Kafka topics. Calcite's PostgreSQL library has only {@code to_timestamp(text, format)};
 * the validator finds this one beside it by the number of arguments. Fractions of a second are kept to the
 * millisecond, kafka-mv's precision.
 */
public final class EpochFunction implements ScalarFunction, ImplementableFunction {

    /** The name the validator looks the call up by, that of Calcite's function beside it. */
    public static final String NAME = "TO_TIMESTAMP";

    private static final Method FROM_SECONDS;

    /** PostgreSQL's limits for a timestamp, 4713 BC to 294276 AD, as seconds from 1970. */
    private static final double MIN_SECONDS = -210_866_803_200.0;
    private static final double MAX_SECONDS = 9_224_318_016_000.0;

    static {
        try {
            FROM_SECONDS = EpochFunction.class.getMethod("fromSeconds", Number.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return List.of(FunctionParameters.of(0, "seconds", SqlTypeName.DOUBLE));
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        return types.createTypeWithNullability(types.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3), true);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor(new ReflectiveCallNotNullImplementor(FROM_SECONDS), NullPolicy.STRICT, false);
    }

    /**
     * Called by the generated code, with the argument as it comes (a bigint, a numeric, a double): the instant's
     * milliseconds, Calcite's value of a timestamptz.
     */
    public static long fromSeconds(Number number) {
        double seconds = number.doubleValue();
        if (Double.isNaN(seconds)) {
            throw new InvalidInputException("timestamp cannot be NaN", InvalidInputException.Reason.DATETIME_FIELD_OUT_OF_RANGE);
        }
        if (seconds < MIN_SECONDS || seconds >= MAX_SECONDS) {
            throw new InvalidInputException("timestamp out of range: \"" + seconds + "\"",
                InvalidInputException.Reason.DATETIME_FIELD_OUT_OF_RANGE);
        }
        return Math.round(seconds * 1000);
    }
}
