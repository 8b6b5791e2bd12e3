package io.kafkamv.service.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.calcite.linq4j.Enumerator;
import org.junit.jupiter.api.Test;

class RelationTableTest {

    private static final Relation RELATION = new Relation("v", RowSchema.of(Column.of("x", SqlType.INTEGER)),
        List.of(), "kmv-view-v");

    /** Rows whose close is counted, as a scan of a view's stores must be closed. */
    private static final class CountedScan implements Iterator<Object[]>, AutoCloseable {
        private final Iterator<Object[]> rows = List.<Object[]>of(new Object[] {0}, new Object[] {1}).iterator();
        private final AtomicInteger closes;

        CountedScan(AtomicInteger closes) {
            this.closes = closes;
        }

        @Override
        public boolean hasNext() {
            return rows.hasNext();
        }

        @Override
        public Object[] next() {
            return rows.next();
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    @Test
    void aScanTheQueryNeverClosesIsClosedWithTheQuery() {
        AtomicInteger closes = new AtomicInteger();
        OpenScans scans = new OpenScans();
        RelationTable table = new RelationTable(RELATION, RelationTable.whole(() -> () -> new CountedScan(closes)), scans);

        // What a query that fails in its first row leaves behind: an enumerator that read a row and was never closed.
        Enumerator<Object[]> abandoned = table.read(null, null, null).enumerator();
        assertThat(abandoned.moveNext()).isTrue();
        assertThat(closes).hasValue(0);

        scans.close();
        assertThat(closes).hasValue(1);
    }

    @Test
    void aScanReadToTheEndAndClosedByCalciteIsClosedOnceMoreHarmlessly() {
        AtomicInteger closes = new AtomicInteger();
        OpenScans scans = new OpenScans();
        RelationTable table = new RelationTable(RELATION, RelationTable.whole(() -> () -> new CountedScan(closes)), scans);

        assertThat(readAll(table.read(null, null, null).enumerator())).isEqualTo(2);
        scans.close();
        assertThat(closes).as("Calcite's close and the query's; a view's scan ignores the second").hasValue(2);
    }

    @Test
    void aScanEnumeratedAgainAndAgainIsReadTwiceNotOnceEachTime() {
        AtomicInteger opens = new AtomicInteger();
        AtomicInteger closes = new AtomicInteger();
        OpenScans scans = new OpenScans();
        RelationTable table = new RelationTable(RELATION, RelationTable.whole(() -> () -> {
            opens.incrementAndGet();
            return new CountedScan(closes);
        }), scans);
        var enumerable = table.read(null, null, null);

        for (int outerRow = 0; outerRow < 5; outerRow++) {
            assertThat(readAll(enumerable.enumerator())).isEqualTo(2);
        }
        scans.close();
        assertThat(opens).as("a streamed read, then one kept for the enumerations after it").hasValue(2);
    }

    @Test
    void aScanReadsTheColumnsTheQueryUsesInAscendingOrderAndGivesThemInTheQuerysOrder() {
        Relation wide = new Relation("w", RowSchema.of(Column.of("a", SqlType.INTEGER), Column.of("b", SqlType.VARCHAR),
            Column.of("c", SqlType.BIGINT)), List.of(), "kmv-view-w");
        List<int[]> asked = new java.util.ArrayList<>();
        RelationTable table = new RelationTable(wide, (columns, filter) -> {
            asked.add(columns);
            // As a view's scan decodes them: only the columns asked for.
            return List.<Object[]>of(java.util.Arrays.stream(columns).mapToObj(column -> "col" + column).toArray());
        }, new OpenScans());

        try (Enumerator<Object[]> rows = table.read(null, new int[] {2, 0}, null).enumerator()) {
            assertThat(rows.moveNext()).isTrue();
            assertThat(rows.current()).containsExactly("col2", "col0");
        }
        try (Enumerator<Object[]> rows = table.read(null, new int[] {}, null).enumerator()) {
            assertThat(rows.moveNext()).isTrue();
            assertThat(rows.current()).isEmpty();
        }
        assertThat(asked).containsExactly(new int[] {0, 2}, new int[] {});
    }

    @Test
    void rowsReadWholeArePickedToTheColumnsAskedFor() {
        RelationTable.Rows rows = RelationTable.whole(() -> List.<Object[]>of(new Object[] {1, "x", 3L}));

        assertThat(rows.read(null, null)).singleElement().isEqualTo(new Object[] {1, "x", 3L});
        assertThat(rows.read(new int[] {1, 2}, null)).singleElement().isEqualTo(new Object[] {"x", 3L});
    }

    /** Reads an enumerator to its end and closes it, as Calcite does with a result it returned: how many rows. */
    private static int readAll(Enumerator<Object[]> rows) {
        try (rows) {
            int count = 0;
            while (rows.moveNext()) {
                count++;
            }
            return count;
        }
    }
}
