package io.kafkamv.compiler.topology.internal;

import java.math.BigDecimal;
import java.util.List;

import io.kafkamv.compiler.runtime.CompositeKeys;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.schema.Column;

/** A join input's {@link CompositeKeys} prefix: its join key, encoded in one form for values SQL calls equal. */
public final class JoinKeys {

    private final int[] columns;
    private final List<Column> joinKey;
    private final List<Integer> nullSafe;
    private final RowCodec codec;

    public JoinKeys(List<Integer> columns, List<Column> joinKey, List<Integer> nullSafe) {
        this.columns = columns.stream().mapToInt(Integer::intValue).toArray();
        this.joinKey = joinKey;
        this.nullSafe = nullSafe;
        this.codec = new RowCodec(joinKey);
    }

    /** A row's prefix; a join key with a NULL matches nothing, unless compared with IS NOT DISTINCT FROM. */
    public byte[] prefix(Object[] row) {
        Object[] values = new Object[columns.length];
        boolean matchable = true;
        for (int i = 0; i < columns.length; i++) {
            values[i] = canonical(SqlValues.convert(row[columns[i]], joinKey.get(i).type()));
            matchable &= values[i] != null || nullSafe.contains(i);
        }
        return CompositeKeys.prefix(codec.encode(values), matchable);
    }

    /** SQL equality, not Java's: 1.0 = 1.00 and 0.0 = -0.0. */
    private static Object canonical(Object value) {
        if (value instanceof BigDecimal decimal) {
            return decimal.signum() == 0 ? BigDecimal.ZERO : decimal.stripTrailingZeros();
        }
        if (value instanceof Double d && d == 0.0) {
            return 0.0;
        }
        if (value instanceof Float f && f == 0.0f) {
            return 0.0f;
        }
        return value;
    }
}
