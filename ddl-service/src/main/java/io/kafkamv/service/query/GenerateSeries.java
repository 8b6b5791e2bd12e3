package io.kafkamv.service.query;

import java.util.List;

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
 * (1 unless given; a negative step counts down), one row each: integers of integer arguments, else bigints, as in
 * PostgreSQL.
 */
public final class GenerateSeries extends AbstractTable implements ScannableTable {

    private final long start;
    private final long stop;
    private final long step;
    /** Whether its values are integers (of integer arguments), else bigints, as PostgreSQL types them. */
    private final boolean integers;

    private GenerateSeries(long start, long stop, long step, boolean integers) {
        if (step == 0) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        }
        this.start = start;
        this.stop = stop;
        this.step = step;
        this.integers = integers;
    }

    /**
     * Called by Calcite for {@code generate_series(a, b)} of integers. Each form takes boxed values: Calcite asks for
     * the row type of a call whose arguments are columns with nulls for them, and a null argument is an empty series,
     * as in PostgreSQL.
     */
    public static ScannableTable generateIntegers(Integer start, Integer stop) {
        return generateIntegersBy(start, stop, 1);
    }

    /** Called by Calcite for {@code generate_series(a, b, step)} of integers. */
    public static ScannableTable generateIntegersBy(Integer start, Integer stop, Integer step) {
        return series(start, stop, step, true);
    }

    /** Called by Calcite for {@code generate_series(a, b)} of bigints. */
    public static ScannableTable generateSeries(Long start, Long stop) {
        return generateSeriesBy(start, stop, 1L);
    }

    /** Called by Calcite for {@code generate_series(a, b, step)} of bigints. */
    public static ScannableTable generateSeriesBy(Long start, Long stop, Long step) {
        return series(start, stop, step, false);
    }

    private static ScannableTable series(Number start, Number stop, Number step, boolean integers) {
        return start == null || stop == null || step == null ? new GenerateSeries(1, 0, 1, integers)
            : new GenerateSeries(start.longValue(), stop.longValue(), step.longValue(), integers);
    }

    /**
     * Adds every form to a schema under PostgreSQL's name. The bigint forms first: arguments that fit none exactly (a
     * numeric) are cast to the first form that takes them, and a bigint holds more of them.
     */
    static void addTo(SchemaPlus schema) {
        for (String method : List.of("generateSeries", "generateSeriesBy", "generateIntegers", "generateIntegersBy")) {
            schema.add("generate_series", TableFunctionImpl.create(GenerateSeries.class, method));
        }
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        return factory.builder().add("generate_series", integers ? SqlTypeName.INTEGER : SqlTypeName.BIGINT).build();
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
                        return new Object[] {integers ? (Object) (int) next : (Object) next};
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
