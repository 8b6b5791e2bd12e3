package io.kafkamv.compiler.plan;

import java.util.List;

/**
 * How an index keeps its relation's rows: by the values of some columns, in a store where one
 * prefix scan finds every row with given values. Rows are sent to partitions by those values, so
 * the rows with the same values are on one instance.
 *
 * @param on         the relation the index is on
 * @param columns    the indexed columns' positions in the relation's rows, in index order
 * @param partitions partitions of the exchange by indexed values
 */
public record IndexOutput(String on, List<Integer> columns, int partitions) {

    public IndexOutput {
        columns = List.copyOf(columns);
    }
}
