package io.kafkamv.service.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.types.CalciteTypes;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.runtime.FlatLists;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A table or view as Calcite scans it for a query: its rows, read when the query runs, and only the columns the
 * query uses ({@link RelationScan}; a view's scan then decodes no others: a count decodes none). Public for the code
 * Calcite generates to call {@link #read}.
 */
public final class RelationTable extends AbstractTable implements TranslatableTable {

    /**
     * Reads the rows of a relation: the values of {@code columns} (indexes, ascending, each once), null for all. Rows
     * of those values {@code filter} refuses may be left out (null: none).
     */
    @FunctionalInterface
    interface Rows {
        Iterable<Object[]> read(int[] columns, Predicate<Object[]> filter);
    }

    private final Relation relation;
    private final Rows rows;
    private final OpenScans opened;

    /** @param opened where a scan that must be closed is noted when it opens, for the query to close it */
    RelationTable(Relation relation, Rows rows, OpenScans opened) {
        this.relation = relation;
        this.rows = rows;
        this.opened = opened;
    }

    /** Rows that are read whole, picked to the columns asked for. */
    static Rows whole(Supplier<? extends Iterable<Object[]>> rows) {
        return (columns, filter) -> columns == null ? rows.get() : () -> new Picked(rows.get().iterator(), columns);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        return CalciteTypes.rowType(relation.schema(), factory);
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table) {
        return new RelationScan(context.getCluster(), table, this,
            IntStream.range(0, relation.schema().columns().size()).toArray());
    }

    /**
     * The rows with the columns of {@code projects}, in its order (null: all), as a query's plan reads them. Rows
     * {@code filter} refuses may be left out; it tests rows of those columns in ascending order, as they are read.
     */
    public Enumerable<Object[]> read(DataContext root, int[] projects, Predicate<Object[]> filter) {
        int[] read = projects == null ? null : IntStream.of(projects).sorted().distinct().toArray();
        Iterable<Object[]> iterable = read == null || Arrays.equals(read, projects) ? rows.read(read, filter)
            : () -> new Picked(rows.read(read, filter).iterator(), positions(projects, read));
        return new AbstractEnumerable<>() {
            private boolean streamed;
            private List<Object[]> kept;

            /**
             * The first enumeration streams the rows. A plan that enumerates the same scan again (a nested loop's
             * inner side, once per outer row) gets them from one more read kept in memory, not a read each time.
             */
            @Override
            public Enumerator<Object[]> enumerator() {
                if (!streamed) {
                    streamed = true;
                    return new RowEnumerator(open(iterable));
                }
                if (kept == null) {
                    kept = new ArrayList<>();
                    try (RowEnumerator all = new RowEnumerator(open(iterable))) {
                        while (all.moveNext()) {
                            kept.add(all.current());
                        }
                    }
                }
                return Linq4j.enumerator(kept);
            }
        };
    }

    /** Each row's single column, as Calcite's code takes rows of one column. */
    public Enumerable<Object> readValues(DataContext root, int[] projects, Predicate<Object[]> filter) {
        return read(root, projects, filter).select(row -> row[0]);
    }

    /** An empty list for each row, as Calcite's code takes rows of no columns (a count's). */
    public Enumerable<List<Object>> readEmptyRows(DataContext root) {
        return read(root, new int[0], null).select(row -> FlatLists.of());
    }

    /** Where each of {@code projects} is among the columns read: those in ascending order, each once. */
    static int[] readOrder(int[] projects) {
        return positions(projects, IntStream.of(projects).sorted().distinct().toArray());
    }

    /** Where each of {@code projects} is among {@code read}. */
    private static int[] positions(int[] projects, int[] read) {
        return IntStream.of(projects).map(column -> Arrays.binarySearch(read, column)).toArray();
    }

    private Iterator<Object[]> open(Iterable<Object[]> iterable) {
        Iterator<Object[]> iterator = iterable.iterator();
        if (iterator instanceof AutoCloseable closeable) {
            opened.add(closeable);
        }
        return iterator;
    }

    private static void closeIfCloseable(Iterator<Object[]> rows) {
        if (rows instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not close a scan of rows: " + e.getMessage(), e);
            }
        }
    }

    /** The values at {@code positions} of each row, in that order; closes the rows it picks from. */
    private static final class Picked implements Iterator<Object[]>, AutoCloseable {

        private final Iterator<Object[]> rows;
        private final int[] positions;

        Picked(Iterator<Object[]> rows, int[] positions) {
            this.rows = rows;
            this.positions = positions;
        }

        @Override
        public boolean hasNext() {
            return rows.hasNext();
        }

        @Override
        public Object[] next() {
            Object[] row = rows.next();
            Object[] picked = new Object[positions.length];
            for (int i = 0; i < positions.length; i++) {
                picked[i] = row[positions[i]];
            }
            return picked;
        }

        @Override
        public void close() {
            closeIfCloseable(rows);
        }
    }

    /** Linq4j's enumerator of an iterator never closes it; a scan of a view's stores must be closed. */
    private static final class RowEnumerator implements Enumerator<Object[]> {

        private final Iterator<Object[]> rows;
        private Object[] current;

        RowEnumerator(Iterator<Object[]> rows) {
            this.rows = rows;
        }

        @Override
        public Object[] current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            if (!rows.hasNext()) {
                return false;
            }
            current = rows.next();
            return true;
        }

        @Override
        public void reset() {
            throw new UnsupportedOperationException("a relation's rows are read once per scan");
        }

        @Override
        public void close() {
            closeIfCloseable(rows);
        }
    }
}
