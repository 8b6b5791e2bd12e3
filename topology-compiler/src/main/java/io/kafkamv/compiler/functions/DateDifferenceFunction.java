package io.kafkamv.compiler.functions;

import java.lang.reflect.Method;
import java.util.List;

import io.kafkamv.compiler.postgres.DatetimeArithmetic;
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
 * PostgreSQL's {@code date - date}: the days between them, an integer. Calcite's own form, a cast of a day
 * interval to an integer, becomes an internal operator no stored SQL can be written with, so a view could not keep
 * it; {@link DatetimeArithmetic} writes the subtraction as a call of this function.
 */
public final class DateDifferenceFunction implements ScalarFunction, ImplementableFunction {

    public static final String NAME = DatetimeArithmetic.DATE_DIFFERENCE;

    private static final Method DAYS;

    static {
        try {
            DAYS = DateDifferenceFunction.class.getMethod("days", int.class, int.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return List.of(FunctionParameters.of(0, "minuend", SqlTypeName.DATE),
            FunctionParameters.of(1, "subtrahend", SqlTypeName.DATE));
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        return types.createTypeWithNullability(types.createSqlType(SqlTypeName.INTEGER), true);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor(new ReflectiveCallNotNullImplementor(DAYS), NullPolicy.STRICT, false);
    }

    /** Called by the generated code with Calcite's values of two dates: days since 1970-01-01. */
    public static int days(int minuend, int subtrahend) {
        return minuend - subtrahend;
    }
}
