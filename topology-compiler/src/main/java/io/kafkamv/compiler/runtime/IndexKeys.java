package io.kafkamv.compiler.runtime;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.connectors.row.RowCodec;

/**
 * The keys of an index's store: lookups scan it with the prefix of the values they look for. The
 * values are in the forms rows hold them (see {@link RowCodec}), in the order of the indexed columns.
 */
public final class IndexKeys {

    private final int[] columns;
    private final RowCodec values;

    public IndexKeys(PhysicalPlan plan) {
        if (plan.index() == null) {
            throw new IllegalArgumentException("plan " + plan.view() + " is not an index");
        }
        this.columns = plan.index().columns().stream().mapToInt(Integer::intValue).toArray();
        this.values = new RowCodec(plan.index().columns().stream()
            .map(column -> plan.schema().columns().get(column)).toList());
    }

    /** The prefix of the entries whose indexed columns have these values. */
    public byte[] prefix(Object[] indexedValues) {
        return CompositeKeys.prefix(values.encode(indexedValues), true);
    }

    public byte[] prefixOfRow(Object[] row) {
        Object[] indexed = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            indexed[i] = row[columns[i]];
        }
        return prefix(indexed);
    }
}
