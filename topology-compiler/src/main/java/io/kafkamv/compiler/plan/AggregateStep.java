package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * Groups rows by some columns and aggregates the others, retracting a row's contribution when it
 * changes or goes away. The output is keyed by the group columns, which come first.
 *
 * @param groupBy indexes of the input columns to group by
 */
public record AggregateStep(String id, String input, List<Integer> groupBy, List<AggregateCall> aggregates,
                            RowSchema schema, List<Column> key) implements PlanStep {

    /**
     * One aggregate: {@code function} over input column {@code argument} (-1 for {@code COUNT(*)}),
     * over the rows whose boolean column {@code filter} is true ({@code FILTER (WHERE ...)}), or all
     * rows when it is null.
     */
    public record AggregateCall(AggregateFunction function, int argument, boolean distinct,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Integer filter) {

        /**
         * Whether its group keeps each of its values, with how often each came: MIN, MAX and DISTINCT do, to find the
         * next one when a row is retracted; a count, sum or average keeps totals.
         */
        public boolean keepsValues() {
            return distinct || function == AggregateFunction.MIN || function == AggregateFunction.MAX;
        }
    }

    public enum AggregateFunction { COUNT, SUM, MIN, MAX, AVG }

    /** The state store of the step's accumulators, one per group. */
    public String stateStore() {
        return id + "-state";
    }

    /** Whether its groups keep totals only ({@link AggregateCall#keepsValues}): small, whatever the group's rows. */
    public boolean keepsTotalsOnly() {
        return aggregates.stream().noneMatch(AggregateCall::keepsValues);
    }

    @Override
    public List<String> inputs() {
        return List.of(input);
    }

    @Override
    public PlanStep withColumnNames(List<String> names) {
        return new AggregateStep(id, input, groupBy, aggregates, schema.withColumnNames(names), key);
    }

    @Override
    public PlanStep renamed(UnaryOperator<String> ids) {
        return new AggregateStep(ids.apply(id), ids.apply(input), groupBy, aggregates, schema, key);
    }

    @Override
    public <R> R accept(PlanStepVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
