package io.kafkamv.service.query;

import java.util.ArrayList;
import java.util.List;

import io.kafkamv.compiler.functions.SystemFunctions;
import io.kafkamv.compiler.postgres.NumericDivision;
import io.kafkamv.compiler.postgres.NumericSpread;
import io.kafkamv.compiler.postgres.Percentiles;
import io.kafkamv.compiler.postgres.PostgresExpressions;
import io.kafkamv.compiler.postgres.SetReturningFunctions;
import io.kafkamv.compiler.postgres.WindowFunctions;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.Holder;

/**
 * PostgreSQL's rules in batch queries, as views have them, and the session's {@code current_user} (Calcite's
 * executor says "sa"). Expressions follow {@link PostgresExpressions}, the
 * rules views use too (checked integers, numeric division, numerics without a scale), applied before Calcite's
 * program runs, so that constants it folds have PostgreSQL's digits, and after it, to what the program made.
 * Aggregates are where a batch query differs from a view, whose accumulators do this themselves:
 * <ul>
 * <li>A sum of bigints is a numeric ({@code PostgresTypeSystem} says so), and Calcite's executor cannot
 *     add bigints into a numeric, so they are summed as numerics.</li>
 * <li>A numeric AVG becomes its SUM divided by its COUNT with PostgreSQL's division (Calcite's own rewrite of
 *     AVG would round the quotient to the average's type, 16 decimals, where PostgreSQL keeps up to 20).</li>
 * </ul>
 */
public final class PostgresQueryRules {

    private PostgresQueryRules() {
    }

    /** Plans the calling thread's queries with PostgreSQL's rules until the returned handle is closed. */
    static Hook.Closeable inThisThread(QueryEngine.Caller caller) {
        Hook.Closeable parsed = Hook.PARSE_TREE.addThread((Object[] sqlAndTree) ->
            SetReturningFunctions.rewrite((SqlNode) sqlAndTree[1], (String) sqlAndTree[0]));
        Hook.Closeable planned = withPostgresExpressions(caller);
        return () -> {
            try {
                planned.close();
            } finally {
                parsed.close();
            }
        };
    }

    private static Hook.Closeable withPostgresExpressions(QueryEngine.Caller caller) {
        return Hook.PROGRAM.addThread((Holder<Program> program) -> {
            Program planned = program.get() == null ? Programs.standard() : program.get();
            program.set(Programs.sequence(
                (planner, rel, traits, materializations, lattices) ->
                    RelationScan.withFiltersInScans(rel.accept(new EveryNode(true, caller))),
                planned,
                (planner, rel, traits, materializations, lattices) -> rel.accept(new EveryNode(false, caller))));
        });
    }

    /**
     * Every node of a plan, also those of its subqueries: its expressions, and before Calcite's program its
     * averages and sums of bigints too.
     */
    private static final class EveryNode extends RelHomogeneousShuttle {
        private final boolean beforeProgram;
        private final QueryEngine.Caller caller;

        EveryNode(boolean beforeProgram, QueryEngine.Caller caller) {
            this.beforeProgram = beforeProgram;
            this.caller = caller;
        }

        @Override
        public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other).accept(new RexShuttle() {
                @Override
                public RexNode visitSubQuery(RexSubQuery subQuery) {
                    RexNode visited = super.visitSubQuery(subQuery);
                    return visited instanceof RexSubQuery inner ? inner.clone(inner.rel.accept(EveryNode.this)) : visited;
                }
            });
            if (beforeProgram && visited instanceof Aggregate aggregate) {
                visited = withPostgresAggregates(aggregate);
            }
            RexBuilder rex = visited.getCluster().getRexBuilder();
            visited = visited.accept(new PostgresExpressions(rex));
            return beforeProgram ? visited.accept(new NumericWindowSums(rex)).accept(new WindowFunctions(rex))
                .accept(new SessionValues(rex, caller)) : visited;
        }
    }

    /**
     * The aggregate with PostgreSQL's sums and averages: each numeric AVG a SUM and a COUNT and a
     * projection that divides them, each SUM of bigints, also an average's, a SUM of numerics, and each standard
     * deviation or variance of integers or numerics a sum, a sum of squares and a count and a projection of
     * {@link NumericSpread}.
     */
    private static RelNode withPostgresAggregates(Aggregate aggregate) {
        if (aggregate.getAggCallList().stream()
                .noneMatch(call -> isNumericAverage(call) || isSumOfBigints(aggregate, call) || isPercentile(call)
                    || isNumericSpread(aggregate, call))) {
            return aggregate;
        }
        RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(aggregate.getCluster(), null);
        builder.push(aggregate.getInput());
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (isPercentile(call)) {
                RelFieldCollation order = call.collation.getFieldCollations().get(0);
                RexNode value = builder.field(order.getFieldIndex());
                calls.add(builder.aggregateCall(SqlLibraryOperators.ARRAY_AGG, value)
                    .sort(order.direction.isDescending() ? builder.desc(value) : value)
                    .filter(call.filterArg < 0 ? null : builder.field(call.filterArg)));
                continue;
            }
            if (isNumericSpread(aggregate, call)) {
                RexNode value = NumericDivision.asDecimal(rex, builder.field(call.getArgList().get(0)));
                RexNode filter = call.filterArg < 0 ? null : builder.field(call.filterArg);
                calls.add(builder.aggregateCall(SqlStdOperatorTable.SUM, value).filter(filter));
                calls.add(builder.aggregateCall(SqlStdOperatorTable.SUM, builder.call(SqlStdOperatorTable.MULTIPLY, value, value))
                    .filter(filter));
                calls.add(builder.aggregateCall(SqlStdOperatorTable.COUNT, value).filter(filter));
                continue;
            }
            boolean average = isNumericAverage(call);
            if (!average && !isSumOfBigints(aggregate, call)) {
                calls.add(builder.aggregateCall(call));
                continue;
            }
            RexNode argument = builder.field(call.getArgList().get(0));
            RexNode filter = call.filterArg < 0 ? null : builder.field(call.filterArg);
            calls.add(builder.aggregateCall(average ? SqlStdOperatorTable.SUM : call.getAggregation(), NumericDivision.asDecimal(rex, argument))
                .distinct(call.isDistinct()).filter(filter));
            if (average) {
                calls.add(builder.aggregateCall(SqlStdOperatorTable.COUNT, argument).distinct(call.isDistinct()).filter(filter));
            }
        }
        builder.aggregate(builder.groupKey(aggregate.getGroupSet(), aggregate.getGroupSets()), calls);
        List<RexNode> columns = new ArrayList<>();
        int groups = aggregate.getGroupCount();
        for (int i = 0; i < groups; i++) {
            columns.add(builder.field(i));
        }
        int next = groups;
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (isNumericAverage(call)) {
                columns.add(NumericDivision.divide(rex, call.getType(), builder.field(next), builder.field(next + 1)));
                next += 2;
            } else if (isNumericSpread(aggregate, call)) {
                columns.add(rex.makeCall(call.getType(), NumericSpread.BY_KIND.get(call.getAggregation().getKind()),
                    List.of(builder.field(next), builder.field(next + 1), builder.field(next + 2))));
                next += 3;
            } else if (isPercentile(call)) {
                columns.add(rex.makeCall(call.getType(), call.getAggregation().getKind() == SqlKind.PERCENTILE_CONT
                    ? Percentiles.CONTINUOUS : Percentiles.DISCRETE, List.of(builder.field(next++),
                    fraction(aggregate, call))));
            } else {
                columns.add(rex.makeCast(call.getType(), builder.field(next++), true, false));
            }
        }
        return builder.project(columns, aggregate.getRowType().getFieldNames(), true).build();
    }

    /** {@code percentile_cont} and {@code percentile_disc}, which Calcite plans but cannot run: see {@link Percentiles}. */
    private static boolean isPercentile(AggregateCall call) {
        return (call.getAggregation().getKind() == SqlKind.PERCENTILE_CONT
            || call.getAggregation().getKind() == SqlKind.PERCENTILE_DISC)
            && call.getArgList().size() == 1 && call.collation.getFieldCollations().size() == 1;
    }

    /** The fraction a percentile is asked for, a constant of the query, as a double. */
    private static RexNode fraction(Aggregate aggregate, AggregateCall call) {
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        RexNode fraction = aggregate.getInput() instanceof Project project
            ? project.getProjects().get(call.getArgList().get(0)) : null;
        if (!(fraction instanceof RexLiteral)) {
            throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED,
                "the fraction of " + call.getAggregation().getName().toLowerCase(java.util.Locale.ROOT)
                    + " must be a constant");
        }
        return rex.makeCast(rex.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), fraction);
    }

    /**
     * A standard deviation or variance of integers or numerics, which PostgreSQL computes in numerics (see
     * {@link NumericSpread}). Not with DISTINCT: the sum of distinct squares is not the sum of the distinct values'
     * squares (-1 and 1), so those stay Calcite's.
     */
    private static boolean isNumericSpread(Aggregate aggregate, AggregateCall call) {
        return NumericSpread.BY_KIND.containsKey(call.getAggregation().getKind()) && !call.isDistinct()
            && call.getArgList().size() == 1
            && SqlTypeName.EXACT_TYPES.contains(aggregate.getInput().getRowType().getFieldList()
                .get(call.getArgList().get(0)).getType().getSqlTypeName());
    }

    private static boolean isSumOfBigints(Aggregate aggregate, AggregateCall call) {
        return call.getArgList().size() == 1 && sumsBigints(call.getAggregation().getKind(),
            aggregate.getInput().getRowType().getFieldList().get(call.getArgList().get(0)).getType());
    }

    /** Whether an aggregate of this kind over this operand adds up bigints, which PostgreSQL sums as numerics. */
    private static boolean sumsBigints(SqlKind kind, RelDataType operand) {
        return (kind == SqlKind.SUM || kind == SqlKind.SUM0) && operand.getSqlTypeName() == SqlTypeName.BIGINT;
    }

    private static boolean isNumericAverage(AggregateCall call) {
        return call.getAggregation().getKind() == SqlKind.AVG && call.getType().getSqlTypeName() == SqlTypeName.DECIMAL;
    }

    /**
     * {@code SUM(b) OVER (...)} and {@code AVG(b) OVER (...)} of bigints sum numerics, as the same
     * aggregates without a window do (see {@link #withPostgresAggregates}).
     */
    private static final class NumericWindowSums extends RexShuttle {
        private final RexBuilder rex;

        NumericWindowSums(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitOver(RexOver over) {
            RexNode visited = super.visitOver(over);
            if (!(visited instanceof RexOver window) || window.getOperands().size() != 1) {
                return visited;
            }
            RelDataType operand = window.getOperands().get(0).getType();
            SqlKind kind = window.getAggOperator().getKind();
            // A window's AVG is expanded into a SUM by Calcite's program, after this pass.
            if (!sumsBigints(kind == SqlKind.AVG ? SqlKind.SUM : kind, operand)) {
                return visited;
            }
            RexWindow frame = window.getWindow();
            // RexOver cannot be cloned with new operands; the same window, made anew, is the same aggregate.
            return rex.makeOver(window.getType(), window.getAggOperator(), List.of(NumericDivision.asDecimal(rex, window.getOperands().get(0))),
                frame.partitionKeys, frame.orderKeys, frame.getLowerBound(), frame.getUpperBound(), frame.getExclude(),
                frame.isRows(), true, false, window.isDistinct(), window.ignoreNulls());
        }
    }

    /**
     * {@code current_user}, {@code session_user} and {@code user} are the session's user, and
     * {@code current_setting('name')} the session's value of the setting, as in PostgreSQL.
     */
    private static final class SessionValues extends RexShuttle {
        private final RexBuilder rex;
        private final QueryEngine.Caller caller;

        SessionValues(RexBuilder rex, QueryEngine.Caller caller) {
            this.rex = rex;
            this.caller = caller;
        }

        @Override
        public RexNode visitCall(org.apache.calcite.rex.RexCall call) {
            if (caller != null && (call.getOperator() == SqlStdOperatorTable.CURRENT_USER
                || call.getOperator() == SqlStdOperatorTable.SESSION_USER || call.getOperator() == SqlStdOperatorTable.USER)) {
                return rex.makeLiteral(caller.user(), call.getType(), false);
            }
            if (caller != null && call.getOperator().getName().equals(SystemFunctions.CURRENT_SETTING)
                && call.getOperands().get(0) instanceof RexLiteral literal && literal.getValueAs(String.class) != null) {
                String name = literal.getValueAs(String.class);
                String value = caller.variable(name).orElseThrow(() -> SqlError.of(SqlState.UNDEFINED_OBJECT,
                    "unrecognized configuration parameter \"" + name + "\""));
                return rex.makeLiteral(value, call.getType(), false);
            }
            return super.visitCall(call);
        }
    }
}
