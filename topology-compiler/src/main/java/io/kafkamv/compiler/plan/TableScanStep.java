package io.kafkamv.compiler.plan;

import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/** Reads the changelog of a table, source or view from its topic as a table of keyed rows. */
public record TableScanStep(String id, String relation, String topic, RowSchema schema, List<Column> key) implements PlanStep {

    @Override
    public List<String> inputs() {
        return List.of();
    }

    @Override
    public PlanStep withColumnNames(List<String> names) {
        return new TableScanStep(id, relation, topic, schema.withColumnNames(names), key);
    }

    @Override
    public <R> R accept(PlanStepVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
