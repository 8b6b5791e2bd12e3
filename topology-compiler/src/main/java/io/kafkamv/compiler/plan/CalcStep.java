package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.function.UnaryOperator;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * Filters and computes columns row by row; keeps each row's key.
 *
 * @param sql the step as a query over its input, named {@code input}, e.g.
 *            {@code SELECT "a" + 1 AS "x" FROM "input" WHERE "b" > 0}. Stored as SQL text so
 *            that the plan reads as what it does and does not depend on Calcite's internals.
 */
public record CalcStep(String id, String input, String sql, RowSchema schema, List<Column> key) implements PlanStep {

    @Override
    public List<String> inputs() {
        return List.of(input);
    }

    @Override
    public PlanStep withColumnNames(List<String> names) {
        return new CalcStep(id, input, sql, schema.withColumnNames(names), key);
    }

    @Override
    public PlanStep renamed(UnaryOperator<String> ids) {
        return new CalcStep(ids.apply(id), ids.apply(input), sql, schema, key);
    }

    @Override
    public <R> R accept(PlanStepVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
