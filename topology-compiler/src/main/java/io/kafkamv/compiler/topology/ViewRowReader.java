package io.kafkamv.compiler.topology;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.connectors.row.RowCodec;

/**
 * How a view's rows are read from the bytes its store keeps under each key ({@link EncodedViewStore}), the stored
 * value's encoding beginning at an offset (a table's store keeps a timestamp before it).
 */
abstract sealed class ViewRowReader {

    private final RowCodec keys;

    private ViewRowReader(PhysicalPlan plan) {
        this.keys = new RowCodec(plan.root().key());
    }

    static ViewRowReader of(PhysicalPlan plan) {
        return new AsStored(plan);
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
}
