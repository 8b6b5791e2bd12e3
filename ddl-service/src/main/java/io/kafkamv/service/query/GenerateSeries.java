package io.kafkamv.service.query;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/** PostgreSQL's {@code generate_series(start, stop)}: the integers from start to stop, one row each. */
public final class GenerateSeries extends AbstractTable implements ScannableTable {

    private final long start;
    private final long stop;

    private GenerateSeries(long start, long stop) {
        this.start = start;
        this.stop = stop;
    }

    /** Called by Calcite for {@code FROM generate_series(a, b)}. */
    public static ScannableTable generateSeries(long start, long stop) {
        return new GenerateSeries(start, stop);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        return factory.builder().add("generate_series", SqlTypeName.BIGINT).build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object[]> enumerator() {
                return new Enumerator<>() {
                    private long next = start - 1;

                    @Override
                    public Object[] current() {
                        return new Object[] {next};
                    }

                    @Override
                    public boolean moveNext() {
                        if (next >= stop) {
                            return false;
                        }
                        next++;
                        return true;
                    }

                    @Override
                    public void reset() {
                        next = start - 1;
                    }

                    @Override
                    public void close() {
                        // Nothing held.
                    }
                };
            }
        };
    }
}
