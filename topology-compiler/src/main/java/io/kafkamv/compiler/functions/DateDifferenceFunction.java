package io.kafkamv.compiler.functions;

import io.kafkamv.compiler.postgres.DatetimeArithmetic;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

import static io.kafkamv.compiler.functions.MethodFunction.parameter;

/**
 * PostgreSQL's {@code date - date}: the days between them, an integer. Calcite's own form, a cast of a day
 * interval to an integer, becomes an internal operator no stored SQL can be written with, so a view could not keep
 * it; {@link DatetimeArithmetic} writes the subtraction as a call of this function.
 */
public final class DateDifferenceFunction {

    public static final String NAME = DatetimeArithmetic.DATE_DIFFERENCE;

    private DateDifferenceFunction() {
    }

    static void addTo(SchemaPlus schema) {
        schema.add(NAME, MethodFunction.of(DateDifferenceFunction.class, "days", SqlTypeName.INTEGER,
            parameter("minuend", SqlTypeName.DATE), parameter("subtrahend", SqlTypeName.DATE)));
    }

    /** Called by the generated code with Calcite's values of two dates: days since 1970-01-01. */
    public static int days(int minuend, int subtrahend) {
        return minuend - subtrahend;
    }
}
