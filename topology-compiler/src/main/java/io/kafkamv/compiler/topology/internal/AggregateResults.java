package io.kafkamv.compiler.topology.internal;

import java.util.List;
import java.util.function.BiConsumer;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.plan.AggregateStep.AggregateCall;
import io.kafkamv.connectors.schema.Column;

/**
 * An aggregate's rows made from its groups' accumulators: the one mapping both the topology's results and the reads
 * of a view's rows from the aggregate's state use, so that the two never disagree.
 */
public final class AggregateResults {

    private final AggregateCall[] calls;
    private final List<Column> columns;
    private final boolean global;

    public AggregateResults(AggregateStep step) {
        this.calls = step.aggregates().toArray(AggregateCall[]::new);
        this.columns = step.schema().columns();
        this.global = step.groupBy().isEmpty();
    }

    /** Whether a group of this many rows has a row: one without is gone; the single row of a global aggregate stays. */
    public boolean hasRow(long rows) {
        return rows > 0 || global;
    }

    /**
     * The group's row: its key's columns, then each aggregate's result; null when the group has no row
     * ({@link #hasRow}). A result that cannot be computed (a sum beyond its type) is null, and {@code failed} is told.
     */
    public Object[] row(Object[] groupKey, Accumulator accumulator, BiConsumer<Column, ArithmeticException> failed) {
        if (!hasRow(accumulator.rows())) {
            return null;
        }
        Object[] row = new Object[columns.size()];
        System.arraycopy(groupKey, 0, row, 0, groupKey.length);
        for (int i = 0; i < calls.length; i++) {
            Column column = columns.get(groupKey.length + i);
            try {
                row[groupKey.length + i] = SqlValues.convert(accumulator.result(calls[i], i), column.type());
            } catch (ArithmeticException e) {
                failed.accept(column, e);
            }
        }
        return row;
    }
}
