package io.kafkamv.service.query;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.compiler.planner.CheckedIntegerArithmetic;
import io.kafkamv.compiler.types.PostgresNumeric;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.Holder;

/**
 * PostgreSQL's arithmetic in batch queries, as views have it.
 * <ul>
 * <li>Integer arithmetic is checked: {@code 9223372036854775807 + 1} is an error, as in PostgreSQL,
 *     not a negative number.</li>
 * <li>A sum of bigints is a numeric ({@code PostgresTypeSystem} says so), and Calcite's executor cannot
 *     add bigints into a numeric, so they are summed as numerics.</li>
 * <li>Numeric division and AVG have PostgreSQL's digits. Calcite's executor divides numerics to 16
 *     significant digits: {@code 10::numeric / 3} is 3.333333333333333 and an average of 1, 2 and 2 is
 *     1.6666666666666670, where PostgreSQL prints 3.3333333333333333 and 1.6666666666666667. So before
 *     Calcite's own program runs, a numeric AVG becomes its SUM divided by its COUNT (Calcite's own
 *     rewrite of AVG would round the quotient to the average's type, 16 decimals, where PostgreSQL
 *     keeps up to 20); and after it, every division with a numeric result calls
 *     {@link PostgresNumeric#divide}.</li>
 * </ul>
 */
public final class PostgresArithmetic {

    private static final SqlUserDefinedFunction DIVIDE = new SqlUserDefinedFunction(
        new SqlIdentifier("numeric_divide", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0, null, null,
        ScalarFunctionImpl.create(PostgresArithmetic.class, "divide"));

    private PostgresArithmetic() {
    }

    /** Called by the generated code; public for that. Null in, null out, as for any operator. */
    @Strict
    public static BigDecimal divide(BigDecimal dividend, BigDecimal divisor) {
        return PostgresNumeric.divide(dividend, divisor);
    }

    /** Plans the calling thread's queries with PostgreSQL's division until the returned handle is closed. */
    static Hook.Closeable inThisThread() {
        return Hook.PROGRAM.addThread((Holder<Program> program) -> {
            Program planned = program.get() == null ? Programs.standard() : program.get();
            program.set(Programs.sequence(
                (planner, rel, traits, materializations, lattices) -> rel.accept(new EveryNode(true)),
                planned,
                (planner, rel, traits, materializations, lattices) -> rel.accept(new EveryNode(false))));
        });
    }

    /**
     * Every node of a plan, also those of its subqueries: its divisions, and before Calcite's program
     * its averages, sums of bigints and integer arithmetic too. Divisions are rewritten before the
     * program as well, so that constants it folds ({@code WHERE x = 1::numeric / 3}) have the same
     * digits as a SELECT prints; and after it, for the divisions the program makes itself.
     */
    private static final class EveryNode extends RelHomogeneousShuttle {
        private final boolean beforeProgram;

        EveryNode(boolean beforeProgram) {
            this.beforeProgram = beforeProgram;
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
            visited = visited.accept(new Divisions(rex));
            return beforeProgram ? visited.accept(new NumericWindowSums(rex)).accept(new CheckedIntegerArithmetic(rex)) : visited;
        }
    }

    /**
     * The aggregate with PostgreSQL's sums and averages: each numeric AVG a SUM and a COUNT and a
     * projection that divides them, and each SUM of bigints, also an average's, a SUM of numerics.
     */
    private static RelNode withPostgresAggregates(Aggregate aggregate) {
        if (aggregate.getAggCallList().stream()
                .noneMatch(call -> isNumericAverage(call) || isSumOfBigints(aggregate, call))) {
            return aggregate;
        }
        RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(aggregate.getCluster(), null);
        builder.push(aggregate.getInput());
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            boolean average = isNumericAverage(call);
            if (!average && !isSumOfBigints(aggregate, call)) {
                calls.add(builder.aggregateCall(call));
                continue;
            }
            RexNode argument = builder.field(call.getArgList().get(0));
            RexNode filter = call.filterArg < 0 ? null : builder.field(call.filterArg);
            calls.add(builder.aggregateCall(average ? SqlStdOperatorTable.SUM : call.getAggregation(), asDecimal(rex, argument))
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
                columns.add(divide(rex, call.getType(), builder.field(next), builder.field(next + 1)));
                next += 2;
            } else {
                columns.add(rex.makeCast(call.getType(), builder.field(next++), true, false));
            }
        }
        return builder.project(columns, aggregate.getRowType().getFieldNames(), true).build();
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
            return rex.makeOver(window.getType(), window.getAggOperator(), List.of(asDecimal(rex, window.getOperands().get(0))),
                frame.partitionKeys, frame.orderKeys, frame.getLowerBound(), frame.getUpperBound(), frame.getExclude(),
                frame.isRows(), true, false, window.isDistinct(), window.ignoreNulls());
        }
    }

    private static final class Divisions extends RexShuttle {
        private final RexBuilder rex;

        Divisions(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexNode visited = super.visitCall(call);
            if (!(visited instanceof RexCall division) || division.getOperator() != SqlStdOperatorTable.DIVIDE
                || division.getType().getSqlTypeName() != SqlTypeName.DECIMAL) {
                return visited;
            }
            return divide(rex, division.getType(), division.getOperands().get(0), division.getOperands().get(1));
        }
    }

    /** {@code dividend / divisor} with PostgreSQL's digits, typed {@code type}; integer operands are made numerics. */
    private static RexNode divide(RexBuilder rex, RelDataType type, RexNode dividend, RexNode divisor) {
        return rex.makeCall(type, DIVIDE, List.of(asDecimal(rex, dividend), asDecimal(rex, divisor)));
    }

    private static RexNode asDecimal(RexBuilder rex, RexNode operand) {
        RelDataType type = operand.getType();
        if (type.getSqlTypeName() == SqlTypeName.DECIMAL) {
            return operand;
        }
        RelDataType decimal = rex.getTypeFactory().decimalOf(type);
        return rex.makeCast(rex.getTypeFactory().createTypeWithNullability(decimal, type.isNullable()), operand);
    }
}
