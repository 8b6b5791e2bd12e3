package io.kafkamv.service.query;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.types.CalciteTypes;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/** A table or view as Calcite scans it for a query: its rows, read when the query runs. */
final class RelationTable extends AbstractTable implements ScannableTable {

    private final Relation relation;
    private final Supplier<? extends Iterable<Object[]>> rows;
    private final OpenScans opened;

    /** @param opened where a scan that must be closed is noted when it opens, for the query to close it */
    RelationTable(Relation relation, Supplier<? extends Iterable<Object[]>> rows, OpenScans opened) {
        this.relation = relation;
        this.rows = rows;
        this.opened = opened;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        return CalciteTypes.rowType(relation.schema(), factory);
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        Iterable<Object[]> iterable = rows.get();
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

    private Iterator<Object[]> open(Iterable<Object[]> iterable) {
        Iterator<Object[]> iterator = iterable.iterator();
        if (iterator instanceof AutoCloseable closeable) {
            opened.add(closeable);
        }
        return iterator;
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
            if (rows instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    throw new IllegalStateException("could not close a scan of rows: " + e.getMessage(), e);
                }
            }
        }
    }
}
