package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * A lookup join, {@code JOIN t FOR SYSTEM_TIME AS OF PROCTIME() ON ...}: each row of the input is joined with
 * the row of table {@code t} that has the key it names, as the table is when the row is processed. Later changes
 * of the table change no joined row; an update of an input row looks the table up again. Rows are the input's
 * columns followed by the table row's (after {@code tableSql}), under the input row's key: an input row meets at
 * most one table row, so the input's key stays the key.
 *
 * <p>Every instance keeps the whole table, read from its topic, so the input is never exchanged and the table's
 * topic is not a source of the job: its offsets are not the job's progress.
 *
 * @param input      the step whose rows look the table up
 * @param table      the relation looked up, with its topic, columns and key
 * @param inputKeys  for each column of the table's key, in its order, the input column holding its value
 * @param tableSql   null, or the calculation Calcite put over the table's rows, as a query over {@code input}
 *                   (the table row); a row it filters out is no match
 * @param keepUnmatched a LEFT JOIN: an input row without a match is kept, padded with nulls
 */
public record LookupJoinStep(String id, String input, String table, String topic, RowSchema tableSchema,
                             List<Column> tableKey, List<Integer> inputKeys,
                             @JsonInclude(JsonInclude.Include.NON_NULL) String tableSql, boolean keepUnmatched,
                             RowSchema schema, List<Column> key) implements PlanStep {

    public LookupJoinStep {
        tableKey = List.copyOf(tableKey);
        inputKeys = List.copyOf(inputKeys);
        if (tableKey.size() != inputKeys.size() || tableKey.isEmpty()) {
            throw new IllegalArgumentException("A lookup join names a value for each column of the table's key");
        }
    }

    @Override
    public List<String> inputs() {
        return List.of(input);
    }

    @Override
    public PlanStep withColumnNames(List<String> names) {
        return new LookupJoinStep(id, input, table, topic, tableSchema, tableKey, inputKeys, tableSql, keepUnmatched,
            schema.withColumnNames(names), key);
    }

    @Override
    public PlanStep renamed(UnaryOperator<String> ids) {
        return new LookupJoinStep(ids.apply(id), ids.apply(input), table, topic, tableSchema, tableKey, inputKeys, tableSql,
            keepUnmatched, schema, key);
    }

    @Override
    public <R> R accept(PlanStepVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
