package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.function.UnaryOperator;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;

/**
 * The first {@code limit} rows after {@code offset} of each group in sort order: {@code ORDER BY ...
 * LIMIT n} over the whole input, or {@code ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) <= n}
 * per group. A row that leaves the top makes room for the next one, so every row of a group is kept,
 * in sort order, not only the top. Ties in sort order are broken by the rows' keys, so the result
 * does not depend on arrival order.
 *
 * @param partitionBy indexes of the input columns that make a group; empty for one group
 * @param rowNumber   whether each output row ends with its position in its group, from 1
 * @param partitions  partitions of the exchange that sends a group's rows to one place
 */
public record TopNStep(String id, String input, List<Integer> partitionBy, List<SortField> orderBy, long offset,
                       long limit, boolean rowNumber, int partitions, RowSchema schema, List<Column> key)
    implements PlanStep {

    /** One column of the sort order. */
    public record SortField(int column, boolean descending, boolean nullsFirst) {
    }

    public TopNStep {
        partitionBy = List.copyOf(partitionBy);
        orderBy = List.copyOf(orderBy);
    }

    /** The key of a top-N's rows: the group and the row's key in the input, encoded. */
    public static List<Column> topNKey() {
        return List.of(new Column("_group", SqlType.BYTEA, false), new Column("_input_key", SqlType.BYTEA, false));
    }

    @Override
    public List<String> inputs() {
        return List.of(input);
    }

    @Override
    public PlanStep withColumnNames(List<String> names) {
        return new TopNStep(id, input, partitionBy, orderBy, offset, limit, rowNumber, partitions,
            schema.withColumnNames(names), key);
    }

    @Override
    public PlanStep renamed(UnaryOperator<String> ids) {
        return new TopNStep(ids.apply(id), ids.apply(input), partitionBy, orderBy, offset, limit, rowNumber, partitions, schema,
            key);
    }

    @Override
    public <R> R accept(PlanStepVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
