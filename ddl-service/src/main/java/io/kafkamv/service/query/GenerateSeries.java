package io.kafkamv.service.query;

import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.schema.impl.TableFunctionImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code generate_series(start, stop [, step])}: the integers from start to stop, step apart
 * (1 unless given; a negative step counts down), one row each.
 */
public final class GenerateSeries extends AbstractTable implements ScannableTable {

    private final long start;
    private final long stop;
    private final long step;

    private GenerateSeries(long start, long stop, long step) {
        this.start = start;
        this.stop = stop;
        this.step = step;
    }

    /** Called by Calcite for {@code generate_series(a, b)}. */
    public static ScannableTable generateSeries(long start, long stop) {
        return new GenerateSeries(start, stop, 1);
    }

    /** Called by Calcite for {@code generate_series(a, b, step)}. */
    public static ScannableTable generateSeriesBy(long start, long stop, long step) {
        if (step == 0) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        }
        return new GenerateSeries(start, stop, step);
    }

    /** Adds both forms to a schema under PostgreSQL's name. */
    static void addTo(SchemaPlus schema) {
        schema.add("generate_series", TableFunctionImpl.create(GenerateSeries.class, "generateSeries"));
        schema.add("generate_series", TableFunctionImpl.create(GenerateSeries.class, "generateSeriesBy"));
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
                    private long next;
                    private boolean started;

                    @Override
                    public Object[] current() {
                        return new Object[] {next};
                    }

                    @Override
                    public boolean moveNext() {
                        if (!started) {
                            started = true;
                            next = start;
                        } else {
                            try {
                                next = Math.addExact(next, step);
                            } catch (ArithmeticException pastTheLastLong) {
                                return false;
                            }
                        }
                        return step > 0 ? next <= stop : next >= stop;
                    }

                    @Override
                    public void reset() {
                        started = false;
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
