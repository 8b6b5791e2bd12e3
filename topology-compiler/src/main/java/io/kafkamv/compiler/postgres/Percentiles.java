package io.kafkamv.compiler.postgres;

import java.util.List;
import java.util.Objects;

import io.kafkamv.compiler.types.PostgresMathException;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * PostgreSQL's ordered-set aggregates {@code percentile_cont(f) WITHIN GROUP (ORDER BY x)} and
 * {@code percentile_disc(f) ...}, which Calcite plans but cannot run: a query's aggregate gathers the group's values
 * in their order (ARRAY_AGG ... ORDER BY) and these functions pick from that list. Nulls are skipped, as in
 * PostgreSQL; a group of none is null.
 */
public final class Percentiles {

    public static final SqlUserDefinedFunction CONTINUOUS =
        JavaFunctions.operator("percentile_cont", Percentiles.class, "continuous");
    public static final SqlUserDefinedFunction DISCRETE =
        JavaFunctions.operator("percentile_disc", Percentiles.class, "discrete");

    private Percentiles() {
    }

    /** The value at {@code fraction} of the way through the sorted values, interpolated between its neighbours. */
    public static Double continuous(List<?> sorted, double fraction) {
        check(fraction);
        if (sorted == null) {
            return null;
        }
        List<Double> values = sorted.stream().filter(Objects::nonNull).map(value -> ((Number) value).doubleValue())
            .toList();
        if (values.isEmpty()) {
            return null;
        }
        double position = fraction * (values.size() - 1);
        int below = (int) Math.floor(position);
        int above = (int) Math.ceil(position);
        double low = values.get(below);
        return below == above ? low : low + (position - below) * (values.get(above) - low);
    }

    /** The first value whose position in the sorted values reaches {@code fraction} of them. */
    public static Object discrete(List<?> sorted, double fraction) {
        check(fraction);
        if (sorted == null) {
            return null;
        }
        List<?> values = sorted.stream().filter(Objects::nonNull).toList();
        if (values.isEmpty()) {
            return null;
        }
        long row = (long) Math.ceil(fraction * values.size());
        return values.get((int) Math.max(row, 1) - 1);
    }

    private static void check(double fraction) {
        if (Double.isNaN(fraction) || fraction < 0 || fraction > 1) {
            throw new PostgresMathException("percentile value " + fraction + " is not between 0 and 1",
                PostgresMathException.Reason.OUT_OF_RANGE);
        }
    }
}
