package io.kafkamv.compiler.postgres;

import java.util.List;

import com.google.common.collect.ImmutableList;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowBounds;
import org.apache.calcite.rex.RexWindowExclusion;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Window functions Calcite's executor lacks or gets wrong, in terms of those it has: {@code percent_rank()} and
 * {@code cume_dist()} (it cannot run them: "Unable to implement EnumerableWindow") from ranks and counts, and
 * {@code nth_value(x, n)} is null while the frame has fewer than n rows (Calcite's looked past the frame's end:
 * the first row of {@code nth_value(x, 2) OVER (ORDER BY x)} had the second's value).
 */
public final class WindowFunctions extends RexShuttle {

    private final RexBuilder rex;

    public WindowFunctions(RexBuilder rexBuilder) {
        this.rex = rexBuilder;
    }

    @Override
    public RexNode visitOver(RexOver over) {
        RexNode visited = super.visitOver(over);
        if (!(visited instanceof RexOver call)) {
            return visited;
        }
        RexWindow window = call.getWindow();
        return switch (call.getAggOperator().getKind()) {
            case PERCENT_RANK -> {
                // (rank - 1) / (rows in the partition - 1), 0 for a partition of one row.
                RexNode rows = count(window.partitionKeys, ImmutableList.of(), RexWindowBounds.UNBOUNDED_FOLLOWING, false);
                RexNode rank = over(call.getType(), SqlStdOperatorTable.RANK, List.of(), window.partitionKeys,
                    window.orderKeys, RexWindowBounds.UNBOUNDED_PRECEDING, RexWindowBounds.CURRENT_ROW,
                    RexWindowExclusion.EXCLUDE_NO_OTHER, false);
                RexNode one = rex.makeExactLiteral(java.math.BigDecimal.ONE);
                yield rex.makeCall(SqlStdOperatorTable.CASE,
                    rex.makeCall(SqlStdOperatorTable.LESS_THAN_OR_EQUAL, rows, one), rex.makeZeroLiteral(call.getType()),
                    rex.makeCast(call.getType(), rex.makeCall(SqlStdOperatorTable.DIVIDE,
                        doubled(rex.makeCall(SqlStdOperatorTable.MINUS, rank, one)),
                        doubled(rex.makeCall(SqlStdOperatorTable.MINUS, rows, one)))));
            }
            case CUME_DIST -> {
                // Rows up to the current row's last peer over the rows in the partition.
                RexNode upToPeers = count(window.partitionKeys, window.orderKeys, RexWindowBounds.CURRENT_ROW, false);
                RexNode rows = count(window.partitionKeys, ImmutableList.of(), RexWindowBounds.UNBOUNDED_FOLLOWING, false);
                yield rex.makeCast(call.getType(), rex.makeCall(SqlStdOperatorTable.DIVIDE, doubled(upToPeers), doubled(rows)));
            }
            case NTH_VALUE -> {
                RexNode inFrame = over(rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT), SqlStdOperatorTable.COUNT,
                    List.of(), window.partitionKeys, window.orderKeys, window.getLowerBound(), window.getUpperBound(),
                    window.getExclude(), window.isRows());
                yield rex.makeCall(SqlStdOperatorTable.CASE,
                    rex.makeCall(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, inFrame, call.getOperands().get(1)), call,
                    rex.makeNullLiteral(call.getType()));
            }
            default -> call;
        };
    }

    private RexNode count(List<RexNode> partitionKeys, ImmutableList<RexFieldCollation> orderKeys, RexWindowBound upper,
                          boolean rows) {
        RelDataType bigint = rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
        return over(bigint, SqlStdOperatorTable.COUNT, List.of(), partitionKeys, orderKeys,
            RexWindowBounds.UNBOUNDED_PRECEDING, upper, RexWindowExclusion.EXCLUDE_NO_OTHER, rows);
    }

    private RexNode over(RelDataType type, SqlAggFunction function, List<RexNode> operands, List<RexNode> partitionKeys,
                         ImmutableList<RexFieldCollation> orderKeys, RexWindowBound lower, RexWindowBound upper,
                         RexWindowExclusion exclude, boolean rows) {
        return rex.makeOver(type, function, operands, partitionKeys, orderKeys, lower, upper, exclude, rows, true, false,
            false, false);
    }

    private RexNode doubled(RexNode value) {
        return rex.makeCast(rex.getTypeFactory().createTypeWithNullability(
            rex.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), value.getType().isNullable()), value);
    }
}
