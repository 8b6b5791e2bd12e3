package io.kafkamv.compiler.topology.internal;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

import io.kafkamv.compiler.plan.AggregateStep.AggregateCall;
import io.kafkamv.compiler.plan.AggregateStep.AggregateFunction;
import io.kafkamv.compiler.types.PostgresNumeric;

/**
 * The running state of one group: how many rows it has and, per aggregate, what is needed to both
 * add and retract a row. MIN, MAX and DISTINCT keep a multiset of values, so deleting the current
 * minimum finds the next one.
 */
public final class Accumulator {

    long rows;
    final long[] nonNull;
    final Object[] sums;
    final TreeMap<Object, Long>[] values;

    @SuppressWarnings({"unchecked", "rawtypes"}) // Java has no generic array creation.
    public Accumulator(int calls) {
        nonNull = new long[calls];
        sums = new Object[calls];
        values = new TreeMap[calls];
    }

    /** How many rows it holds: retractions count down, so a group whose count reaches 0 is gone. */
    public long rows() {
        return rows;
    }

    /**
     * A deep copy. Kafka Streams forwards the accumulator it passed in as the old value, so adding
     * to it in place would make the old and new rows the same and hide the change downstream.
     */
    Accumulator copy() {
        Accumulator copy = new Accumulator(nonNull.length);
        copy.rows = rows;
        System.arraycopy(nonNull, 0, copy.nonNull, 0, nonNull.length);
        System.arraycopy(sums, 0, copy.sums, 0, sums.length);
        for (int i = 0; i < values.length; i++) {
            copy.values[i] = values[i] == null ? null : new TreeMap<>(values[i]);
        }
        return copy;
    }

    /** This accumulator with one row added (sign 1) or retracted (sign -1), as a new accumulator. */
    public Accumulator plus(AggregateCall[] calls, Object[] row, int sign) {
        Accumulator next = copy();
        next.add(calls, row, sign);
        return next;
    }

    /** Adds a row to this accumulator in place: for a partial aggregate that nothing else has seen yet. */
    void addInPlace(AggregateCall[] calls, Object[] row) {
        add(calls, row, 1);
    }

    /**
     * This accumulator with a partial aggregate of other rows folded in, as a new accumulator. Counts
     * and sums add up and value multisets merge, so the result is the same as adding the partial's rows
     * one by one.
     */
    public Accumulator merged(Accumulator partial) {
        Accumulator next = copy();
        next.rows += partial.rows;
        for (int i = 0; i < nonNull.length; i++) {
            next.nonNull[i] += partial.nonNull[i];
            if (partial.sums[i] != null) {
                next.sums[i] = Numbers.add(next.sums[i], partial.sums[i], 1);
            }
            if (partial.values[i] != null) {
                if (next.values[i] == null) {
                    next.values[i] = new TreeMap<>();
                }
                for (Map.Entry<Object, Long> value : partial.values[i].entrySet()) {
                    next.values[i].merge(value.getKey(), value.getValue(), Accumulator::countOrGone);
                }
            }
        }
        return next;
    }

    /** A multiset's count after adding to it, or null (the value leaves the multiset) at zero. */
    private static Long countOrGone(Long count, Long added) {
        return count + added == 0 ? null : count + added;
    }

    private void add(AggregateCall[] calls, Object[] row, int sign) {
        rows += sign;
        for (int i = 0; i < calls.length; i++) {
            AggregateCall call = calls[i];
            if (call.filter() != null && !Boolean.TRUE.equals(row[call.filter()])) {
                continue;
            }
            if (call.argument() < 0) {
                // COUNT(*) counts the group's rows, unless it has a filter of its own.
                if (call.filter() != null) {
                    nonNull[i] += sign;
                }
                continue;
            }
            Object value = row[call.argument()];
            if (value == null) {
                continue;
            }
            nonNull[i] += sign;
            if (call.keepsValues()) {
                if (values[i] == null) {
                    values[i] = new TreeMap<>();
                }
                values[i].merge(value, (long) sign, Accumulator::countOrGone);
            } else if (call.function() == AggregateFunction.SUM || call.function() == AggregateFunction.AVG) {
                sums[i] = Numbers.add(sums[i], value, sign);
            }
        }
    }

    /** The aggregate's SQL result, before conversion to the output column's type. */
    public Object result(AggregateCall call, int i) {
        return switch (call.function()) {
            case COUNT -> call.argument() < 0 && call.filter() == null ? rows
                : call.distinct() ? distinctCount(i) : nonNull[i];
            case MIN -> values[i] == null || values[i].isEmpty() ? null : values[i].firstKey();
            case MAX -> values[i] == null || values[i].isEmpty() ? null : values[i].lastKey();
            case SUM -> call.distinct() ? distinctSum(i) : nonNull[i] == 0 ? null : sums[i];
            case AVG -> {
                Object sum = call.distinct() ? distinctSum(i) : sums[i];
                long count = call.distinct() ? distinctCount(i) : nonNull[i];
                yield count == 0 || sum == null ? null : Numbers.divide(sum, count);
            }
        };
    }

    private long distinctCount(int i) {
        return values[i] == null ? 0 : values[i].size();
    }

    private Object distinctSum(int i) {
        if (values[i] == null || values[i].isEmpty()) {
            return null;
        }
        Object sum = null;
        for (Map.Entry<Object, Long> entry : values[i].entrySet()) {
            sum = Numbers.add(sum, entry.getKey(), 1);
        }
        return sum;
    }

    /** Arithmetic on the numbers SQL values come as, widened so that a sum does not overflow. */
    static final class Numbers {
        private Numbers() {
        }

        static Object add(Object sum, Object value, int sign) {
            if (value instanceof BigDecimal || sum instanceof BigDecimal) {
                BigDecimal current = sum == null ? BigDecimal.ZERO : toDecimal(sum);
                BigDecimal delta = toDecimal(value);
                return sign > 0 ? current.add(delta) : current.subtract(delta);
            }
            if (value instanceof Double || value instanceof Float || sum instanceof Double) {
                double current = sum == null ? 0 : ((Number) sum).doubleValue();
                return current + sign * ((Number) value).doubleValue();
            }
            long current = sum == null ? 0 : ((Number) sum).longValue();
            long operand = ((Number) value).longValue();
            try {
                return sign > 0 ? Math.addExact(current, operand) : Math.subtractExact(current, operand);
            } catch (ArithmeticException beyondLong) {
                // Past a long's range the sum goes on as a numeric: a sum of bigints is a numeric in PostgreSQL.
                BigDecimal exact = BigDecimal.valueOf(current);
                return sign > 0 ? exact.add(BigDecimal.valueOf(operand)) : exact.subtract(BigDecimal.valueOf(operand));
            }
        }

        static Object divide(Object sum, long count) {
            if (sum instanceof Double d) {
                return d / count;
            }
            BigDecimal dividend = sum instanceof BigDecimal decimal ? decimal : BigDecimal.valueOf(((Number) sum).longValue());
            return PostgresNumeric.divide(dividend, BigDecimal.valueOf(count));
        }

        static BigDecimal toDecimal(Object value) {
            if (value instanceof BigDecimal decimal) {
                return decimal;
            }
            if (value instanceof Double || value instanceof Float) {
                return BigDecimal.valueOf(((Number) value).doubleValue());
            }
            return BigDecimal.valueOf(((Number) value).longValue());
        }
    }
}
