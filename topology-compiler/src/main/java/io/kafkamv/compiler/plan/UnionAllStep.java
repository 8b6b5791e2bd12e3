package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.function.UnaryOperator;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * The rows of all inputs together, duplicates kept. A row is keyed by which input it came from and
 * its key there, so that an update or delete in one input touches exactly its own row.
 */
public record UnionAllStep(String id, List<String> inputs, RowSchema schema, List<Column> key) implements PlanStep {

    /** The key of a union's rows: the input's position, and the row's key in that input, encoded. */
    public static List<Column> unionKey() {
        return List.of(new Column("_input", io.kafkamv.connectors.schema.SqlType.INTEGER, false),
            new Column("_input_key", io.kafkamv.connectors.schema.SqlType.BYTEA, false));
    }

    @Override
    public PlanStep withColumnNames(List<String> names) {
        return new UnionAllStep(id, inputs, schema.withColumnNames(names), key);
    }

    @Override
    public PlanStep renamed(UnaryOperator<String> ids) {
        return new UnionAllStep(ids.apply(id), inputs.stream().map(ids).toList(), schema, key);
    }

    @Override
    public <R> R accept(PlanStepVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
