package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * Reads the changelog of a table or view from its topic as a table of keyed rows.
 *
 * @param recordedAppendOnly whether the relation's rows are only ever inserted (a table without a primary
 *                    key, or a view whose plan only inserts), so they can flow as a stream; stored as
 *                    {@code insertsOnly}. Absent in plans stored before it was recorded: those read it from
 *                    the schema, as they were built.
 */
public record TableScanStep(String id, String relation, String topic, RowSchema schema, List<Column> key,
                            @JsonProperty("insertsOnly") @JsonInclude(JsonInclude.Include.NON_NULL) Boolean recordedAppendOnly)
    implements PlanStep {

    /**
     * Whether the rows are only ever inserted. For a plan stored without the flag, a schema without key
     * columns: right for tables, but it took every view for insert-only, so such plans keep building the
     * topology they were created with, and a view over a view needs creating again to be right.
     */
    public boolean appendOnly() {
        return recordedAppendOnly != null ? recordedAppendOnly : schema.appendOnly();
    }

    @Override
    public List<String> inputs() {
        return List.of();
    }

    @Override
    public PlanStep withColumnNames(List<String> names) {
        return new TableScanStep(id, relation, topic, schema.withColumnNames(names), key, recordedAppendOnly);
    }

    @Override
    public PlanStep renamed(UnaryOperator<String> ids) {
        return new TableScanStep(ids.apply(id), relation, topic, schema, key, recordedAppendOnly);
    }

    @Override
    public <R> R accept(PlanStepVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
