package io.kafkamv.compiler.topology;

import java.util.function.BiConsumer;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.topology.internal.AccumulatorSerde;
import io.kafkamv.compiler.topology.internal.AggregateResults;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.schema.Column;

/**
 * How a view's rows are read from the bytes its store keeps under each key ({@link EncodedViewStore}), the stored
 * value's encoding beginning at an offset (a table's store keeps a timestamp before it): the row itself, or, for a
 * view whose rows are its aggregate's ({@link PhysicalPlan#rowsFromAggregate}), the group's accumulator.
 */
abstract sealed class ViewRowReader {

    /** The view's key columns, as its store keeps them. */
    final RowCodec keys;

    private ViewRowReader(PhysicalPlan plan) {
        this.keys = new RowCodec(plan.root().key());
    }

    static ViewRowReader of(PhysicalPlan plan) {
        return plan.rowsFromAggregate() ? new FromAccumulators(plan) : new AsStored(plan);
    }

    /** The key as the store keeps it. */
    final byte[] key(Object[] key) {
        return keys.encode(key);
    }

    /** Whether the stored value is a row (and not what the store keeps of one that is gone). */
    abstract boolean holdsRow(byte[] stored, int offset);

    /** The row under {@code key}: every column ({@code columns} null) or those asked for (ascending); null for none. */
    abstract Object[] row(byte[] key, byte[] stored, int offset, int[] columns);

    /** The row under {@code key} in {@link RowCodec}'s form; null for none. */
    abstract byte[] encodedRow(byte[] key, byte[] stored, int offset);

    /** A view whose store keeps its rows as they are. */
    private static final class AsStored extends ViewRowReader {

        private final RowCodec rows;

        AsStored(PhysicalPlan plan) {
            super(plan);
            this.rows = new RowCodec(plan.schema().columns());
        }

        @Override
        boolean holdsRow(byte[] stored, int offset) {
            return true;
        }

        @Override
        Object[] row(byte[] key, byte[] stored, int offset, int[] columns) {
            return columns == null ? rows.decode(stored, offset) : rows.decode(stored, offset, columns);
        }

        @Override
        byte[] encodedRow(byte[] key, byte[] stored, int offset) {
            return offset == 0 ? stored : java.util.Arrays.copyOfRange(stored, offset, stored.length);
        }
    }

    /**
     * A view whose store is its aggregate's state: each group's row is made from the key and the accumulator by the
     * mapping the aggregate's results use ({@link AggregateResults}). A result that cannot be computed is null, as
     * in the view's topic; the topology reported it when it computed it.
     */
    private static final class FromAccumulators extends ViewRowReader {

        private static final BiConsumer<Column, ArithmeticException> REPORTED_BY_THE_TOPOLOGY = (column, failure) -> { };

        private final RowCodec rows;
        private final AccumulatorSerde accumulators;
        private final AggregateResults results;

        FromAccumulators(PhysicalPlan plan) {
            super(plan);
            AggregateStep aggregate = (AggregateStep) plan.root();
            this.rows = new RowCodec(aggregate.schema().columns());
            this.accumulators = new AccumulatorSerde(aggregate.aggregates().size());
            this.results = new AggregateResults(aggregate);
        }

        @Override
        boolean holdsRow(byte[] stored, int offset) {
            return results.hasRow(AccumulatorSerde.rows(stored, offset));
        }

        @Override
        Object[] row(byte[] key, byte[] stored, int offset, int[] columns) {
            Object[] row = results.row(keys.decode(key), accumulators.decode(stored, offset), REPORTED_BY_THE_TOPOLOGY);
            if (row == null || columns == null) {
                return row;
            }
            Object[] picked = new Object[columns.length];
            for (int i = 0; i < columns.length; i++) {
                picked[i] = row[columns[i]];
            }
            return picked;
        }

        @Override
        byte[] encodedRow(byte[] key, byte[] stored, int offset) {
            Object[] row = row(key, stored, offset, null);
            return row == null ? null : rows.encode(row);
        }
    }
}
