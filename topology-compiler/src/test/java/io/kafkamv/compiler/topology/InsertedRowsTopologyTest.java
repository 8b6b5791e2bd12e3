package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import io.kafkamv.compiler.topology.internal.PartialAggregator;
import io.kafkamv.compiler.types.PostgresNumeric;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rows of a table without a primary key are only ever inserted, so they flow as a stream: aggregations
 * over them fold each row in as it comes (the view equals the aggregates computed directly over all
 * rows so far, batch after batch), and a view of them keeps each row as it comes.
 */
class InsertedRowsTopologyTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void aggregatesOfInsertedRowsEqualTheAggregatesOfAllRowsAfterEveryBatch(long seed) {
        Random random = new Random(seed);
        try (ViewHarness harness = new ViewHarness().appendOnlyTable("events",
                new Column("g", SqlType.INTEGER, true), new Column("v", SqlType.INTEGER, true))) {
            harness.view("CREATE MATERIALIZED VIEW per_group AS SELECT g, count(*) AS n, count(v) AS nv, sum(v) AS s, "
                + "min(v) AS lo, max(v) AS hi, count(DISTINCT v) AS dv, avg(v) AS mean FROM events WHERE v IS NULL OR v <> 13 "
                + "GROUP BY g");
            List<Integer[]> inserted = new ArrayList<>();
            long rowId = 0;
            for (int batch = 0; batch < 6; batch++) {
                int rows = random.nextInt(40);
                for (int i = 0; i < rows; i++) {
                    Integer g = random.nextInt(10) == 0 ? null : random.nextInt(5);
                    Integer v = random.nextInt(8) == 0 ? null : random.nextInt(30) - 10;
                    inserted.add(new Integer[] {g, v});
                    harness.insert("events", rowId++, g, v);
                }
                assertThat(harness.rows()).as("after batch %d", batch).containsExactlyInAnyOrderElementsOf(expected(inserted));
            }
        }
    }

    @org.junit.jupiter.api.Test
    void partialsHoldRowsBackUntilTheyFlushAndWriteDownTheFirstOffsetTheyHold() {
        try (ViewHarness harness = new ViewHarness().appendOnlyTable("events",
                new Column("g", SqlType.INTEGER, true), new Column("v", SqlType.INTEGER, true))) {
            harness.view("CREATE MATERIALIZED VIEW per_group AS SELECT g, count(*) AS n, sum(v) AS s FROM events GROUP BY g");
            harness.insert("events", 1, 1, 10).insert("events", 2, 2, 20).insert("events", 3, 1, 30);

            assertThat(harness.rowsSoFar()).as("nothing has reached the aggregates yet").isEmpty();
            assertThat(harness.heldBack()).containsExactly(Map.entry("kmv-table-events:0", 0L));

            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of(1, 2L, 40L), List.of(2, 1L, 20L));
            assertThat(harness.heldBack()).as("all flushed").isEmpty();

            harness.insert("events", 4, 2, 5);
            assertThat(harness.heldBack()).containsExactly(Map.entry("kmv-table-events:0", 3L));
            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of(1, 2L, 40L), List.of(2, 2L, 25L));
        }
    }

    @org.junit.jupiter.api.Test
    void partialsStepAsideWhenRowsHardlyFold() {
        try (ViewHarness harness = new ViewHarness().appendOnlyTable("events",
                new Column("g", SqlType.INTEGER, true), new Column("v", SqlType.INTEGER, true))) {
            harness.view("CREATE MATERIALIZED VIEW per_group AS SELECT g, count(*) AS n FROM events GROUP BY g");
            int rows = (int) PartialAggregator.QUIET_ROWS + 500;
            for (int i = 0; i < rows; i++) {
                harness.insert("events", i, i, 1);
            }
            assertThat(harness.rows()).hasSize(rows);

            harness.insert("events", rows, 7, 1).insert("events", rows + 1, 99_999, 1);
            assertThat(harness.heldBack()).as("one group per row: nothing is held back any more").isEmpty();
            assertThat(harness.rowsSoFar()).hasSize(rows + 1).contains(List.of(7, 2L), List.of(99_999, 1L));
        }
    }

    @org.junit.jupiter.api.Test
    void partialsOfAQuietInputGoOnWithinAFlushIntervalAndThoseOfABusyOneAreHeldToFoldFurther() {
        try (ViewHarness harness = new ViewHarness().appendOnlyTable("events",
                new Column("g", SqlType.INTEGER, true), new Column("v", SqlType.INTEGER, true))) {
            harness.view("CREATE MATERIALIZED VIEW per_group AS SELECT g, count(*) AS n FROM events GROUP BY g");
            int rowId = 0;
            for (int i = 0; i < 10; i++) {
                harness.insert("events", rowId++, i % 5, 1);
            }
            assertThat(harness.advance(PartialAggregator.FLUSH_INTERVAL).rowsSoFar()).as("quiet").hasSize(5).contains(List.of(0, 2L));

            // Busy: every interval brings QUIET_ROWS rows over so many groups that they fold into 4 rows each at most.
            int groups = 5_000;
            long inGroupZero = 2;
            long intervals = PartialAggregator.MAX_HOLD.dividedBy(PartialAggregator.FLUSH_INTERVAL);
            for (long interval = 1; interval <= intervals; interval++) {
                for (int i = 0; i < PartialAggregator.QUIET_ROWS; i++) {
                    harness.insert("events", rowId, rowId % groups, 1);
                    inGroupZero += rowId % groups == 0 ? 1 : 0;
                    rowId++;
                }
                List<List<Object>> rows = harness.advance(PartialAggregator.FLUSH_INTERVAL).rowsSoFar();
                if (interval < intervals) {
                    assertThat(rows).as("busy interval %d: still held", interval).hasSize(5).contains(List.of(0, 2L));
                    assertThat(harness.heldBack()).isNotEmpty();
                } else {
                    assertThat(rows).as("held no longer than MAX_HOLD").hasSize(groups);
                    assertThat(rows.stream().mapToLong(row -> (Long) row.get(1)).sum()).isEqualTo(rowId);
                }
            }

            harness.insert("events", rowId, 0, 1);
            assertThat(harness.advance(PartialAggregator.FLUSH_INTERVAL).rowsSoFar()).as("quiet again")
                .contains(List.of(0, inGroupZero + 1));
        }
    }

    @org.junit.jupiter.api.Test
    void aJoinOfInsertedRowsWithATableFollowsTheTablesUpdatesAndDeletes() {
        try (ViewHarness harness = new ViewHarness()
                .appendOnlyTable("events", new Column("g", SqlType.INTEGER, true), new Column("v", SqlType.INTEGER, true))
                .table("names", List.of("g"), new Column("g", SqlType.INTEGER, false), new Column("name", SqlType.VARCHAR, true))) {
            harness.view("CREATE MATERIALIZED VIEW named AS SELECT e.v, n.name FROM events e JOIN names n ON e.g = n.g");
            harness.upsert("names", 1, "one").upsert("names", 2, "two");
            harness.insert("events", 1, 1, 10).insert("events", 2, 2, 20).insert("events", 3, 1, 11)
                .insert("events", 4, 3, 30).insert("events", 5, null, 40);
            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of(10, "one"), List.of(20, "two"), List.of(11, "one"));

            harness.upsert("names", 1, "uno").delete("names", 2).upsert("names", 3, "three");
            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of(10, "uno"), List.of(11, "uno"), List.of(30, "three"));
        }
    }

    @org.junit.jupiter.api.Test
    void theTopOfInsertedRowsKeepsTheLargestSoFar() {
        try (ViewHarness harness = new ViewHarness().appendOnlyTable("events",
                new Column("g", SqlType.INTEGER, true), new Column("v", SqlType.INTEGER, true))) {
            harness.view("CREATE MATERIALIZED VIEW top2 AS SELECT g, v FROM events ORDER BY v DESC LIMIT 2");
            harness.insert("events", 1, 1, 5).insert("events", 2, 2, 9).insert("events", 3, 3, 7);
            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of(2, 9), List.of(3, 7));

            harness.insert("events", 4, 4, 8).insert("events", 5, 5, 1);
            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of(2, 9), List.of(4, 8));
        }
    }

    @org.junit.jupiter.api.Test
    void expressionsOverBinaryColumnsTakeAndGiveBytes() {
        try (ViewHarness harness = new ViewHarness().appendOnlyTable("payloads", new Column("p", SqlType.BYTEA, true))) {
            harness.view("CREATE MATERIALIZED VIEW sized AS SELECT octet_length(p) AS n, p FROM payloads WHERE octet_length(p) > 1");
            harness.insert("payloads", 1, (Object) new byte[] {1, 2, 3}).insert("payloads", 2, (Object) new byte[] {9});

            assertThat(harness.rows()).singleElement().satisfies(row -> {
                assertThat(row.get(0)).isEqualTo(3);
                assertThat((byte[]) row.get(1)).containsExactly(1, 2, 3);
            });
        }
    }

    @org.junit.jupiter.api.Test
    void aViewOfInsertedRowsKeepsEachInItsStoreAndSendsItOn() {
        try (ViewHarness harness = new ViewHarness().appendOnlyTable("events",
                new Column("g", SqlType.INTEGER, true), new Column("v", SqlType.INTEGER, true))) {
            harness.view("CREATE MATERIALIZED VIEW big AS SELECT g, v * 2 AS doubled FROM events WHERE v > 1");
            harness.insert("events", 1, 1, 1).insert("events", 2, 1, 5).insert("events", 3, 2, 5).insert("events", 4, null, 7);

            List<List<Object>> expected = List.of(List.of(1, 10), List.of(2, 10), java.util.Arrays.asList(null, 14));
            assertThat(harness.rows()).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(harness.storedRows()).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    private static List<List<Object>> expected(List<Integer[]> rows) {
        Map<Integer, List<Integer>> groups = new java.util.HashMap<>();
        for (Integer[] row : rows) {
            if (row[1] == null || row[1] != 13) {
                groups.computeIfAbsent(row[0], g -> new ArrayList<>()).add(row[1]);
            }
        }
        List<List<Object>> result = new ArrayList<>();
        groups.forEach((g, values) -> {
            List<Integer> present = values.stream().filter(java.util.Objects::nonNull).toList();
            Long sum = present.isEmpty() ? null : present.stream().mapToLong(Integer::longValue).sum();
            TreeMap<Integer, Boolean> distinct = new TreeMap<>();
            present.forEach(v -> distinct.put(v, true));
            List<Object> row = new ArrayList<>();
            row.add(g);
            row.add((long) values.size());
            row.add((long) present.size());
            row.add(sum);
            row.add(present.isEmpty() ? null : distinct.firstKey());
            row.add(present.isEmpty() ? null : distinct.lastKey());
            row.add((long) distinct.size());
            row.add(present.isEmpty() ? null
                : PostgresNumeric.divide(BigDecimal.valueOf(sum), BigDecimal.valueOf(present.size())));
            result.add(row);
        });
        return result;
    }
}
