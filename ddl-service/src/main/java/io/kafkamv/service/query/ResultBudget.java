package io.kafkamv.service.query;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;

/**
 * How much memory a query's result may take while it is collected before it is sent, roughly: a query whose rows
 * would take more fails with 53200, as PostgreSQL fails a query that runs out of memory, instead of taking the
 * instance down ({@code SELECT * FROM generate_series(1, 2000000000)}). The size of a row is estimated from its
 * values as the JVM keeps them.
 */
final class ResultBudget {

    private final long limitBytes;
    private long usedBytes;

    ResultBudget(long limitBytes) {
        this.limitBytes = limitBytes;
    }

    /** The default: a quarter of the heap, so that a few such queries at once still leave the views room. */
    static long quarterOfTheHeap() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    /** Counts a row; throws once the rows counted take more than the limit. */
    void add(Object[] row) {
        long size = 16 + 8L * row.length;
        for (Object value : row) {
            size += sizeOf(value);
        }
        usedBytes += size;
        if (usedBytes > limitBytes) {
            throw SqlError.at(SqlState.OUT_OF_MEMORY, String.format(Locale.ROOT,
                "out of memory: the query's result takes more than %,d MB", limitBytes >> 20), 0,
                "Add a LIMIT or a WHERE, or aggregate: results are collected in memory before they are sent "
                    + "(the limit is --max-result-mb).");
        }
    }

    private static long sizeOf(Object value) {
        if (value == null) {
            return 0;
        }
        if (value instanceof String text) {
            return 40 + 2L * text.length();
        }
        if (value instanceof byte[] bytes) {
            return 16 + bytes.length;
        }
        if (value instanceof BigDecimal decimal) {
            return 40 + decimal.unscaledValue().bitLength() / 8;
        }
        if (value instanceof List<?> list) {
            long size = 24 + 8L * list.size();
            for (Object element : list) {
                size += sizeOf(element);
            }
            return size;
        }
        return 24;
    }
}
