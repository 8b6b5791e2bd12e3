package io.kafkamv.compiler.postgres;

import java.util.Locale;

import io.kafkamv.compiler.functions.SystemFunctions;
import io.kafkamv.compiler.types.CalciteTypes;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code pg_typeof(x)} is the name of the type of {@code x} as PostgreSQL prints it ({@code integer},
 * {@code double precision}, {@code numeric}); a string is {@code text}, the type kafka-mv's strings are declared with.
 */
final class TypeNames extends RexShuttle {

    private final RexBuilder rexBuilder;

    TypeNames(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RexNode visitCall(RexCall call) {
        if (call.getOperator().getName().equals(SystemFunctions.PG_TYPEOF) && call.getOperands().size() == 1) {
            return rexBuilder.makeLiteral(name(call.getOperands().get(0)), call.getType(), false);
        }
        return super.visitCall(call);
    }

    private static String name(RexNode operand) {
        return name(operand.getType());
    }

    /** The type's name as PostgreSQL's format_type writes it: {@code integer}, {@code timestamp without time zone}. */
    public static String name(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case NULL -> "unknown";
            case CHAR, VARCHAR -> "text";
            case ARRAY -> name(type.getComponentType()) + "[]";
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH -> "interval";
            default -> {
                SqlType known = CalciteTypes.sqlType(type);
                yield known != null ? known.postgresName() : type.getSqlTypeName().getName().toLowerCase(Locale.ROOT);
            }
        };
    }
}
