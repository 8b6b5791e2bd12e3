package io.kafkamv.compiler.postgres;

import java.util.List;

import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * A timestamp cast to timestamptz keeps its fraction of a second: Calcite's cast cut
 * {@code '2026-01-01 00:01:30.5'::timestamp::timestamptz} to 00:01:30. Every session is at UTC, so the instant is the
 * timestamp read at UTC: the same milliseconds.
 */
public final class TimestampCasts extends RexShuttle {

    private static final SqlUserDefinedFunction AT_UTC =
        JavaFunctions.operator("timestamp_at_utc", TimestampCasts.class, "atUtc");

    private final RexBuilder rexBuilder;

    public TimestampCasts(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexNode visited = super.visitCall(call);
        if (visited instanceof RexCall cast && cast.getKind() == SqlKind.CAST
            && cast.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
            && cast.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.TIMESTAMP) {
            return rexBuilder.makeCall(cast.getType(), AT_UTC, List.of(cast.getOperands().get(0)));
        }
        return visited;
    }

    /** Called by the generated code; public for that. A timestamp and a timestamptz are both their milliseconds. */
    @Strict
    public static long atUtc(long millis) {
        return millis;
    }
}
