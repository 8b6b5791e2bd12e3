package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

/**
 * A view whose last step is an aggregate keeps no store of its rows: queries read them from the aggregate's state,
 * made from each group's accumulator ({@code PhysicalPlan.rowsFromAggregate}). {@link ViewHarness#rows} checks every
 * view's stored rows against its topic; these are the cases only the aggregate's state has.
 */
class AggregateViewRowsTest {

    private static ViewHarness orders() {
        return new ViewHarness().withRecordCaches().table("orders", List.of("id"), new Column("id", SqlType.BIGINT, false),
            new Column("g", SqlType.INTEGER, true), new Column("v", SqlType.INTEGER, true));
    }

    @Test
    void aGroupWhoseRowsAreAllDeletedStaysInTheStateButIsNoRow() {
        try (ViewHarness harness = orders()) {
            var view = harness.view("CREATE MATERIALIZED VIEW m AS SELECT g, count(*) AS n, sum(v) AS s, count(v) AS c "
                + "FROM orders GROUP BY g");
            assertThat(view.plan().rowsFromAggregate()).isTrue();
            assertThat(view.plan().store()).isEqualTo(((AggregateStep) view.plan().root()).stateStore());

            harness.upsert("orders", 1L, 1, 10).upsert("orders", 2L, 1, 30).upsert("orders", 3L, 2, 5)
                .upsert("orders", 4L, 3, 7).upsert("orders", 2L, 1, 20).delete("orders", 3L).delete("orders", 4L);

            assertThat(harness.rows()).containsExactly(List.of(1, 2L, 30L, 2L));
            EncodedViewStore.Partition store = harness.encodedStore();
            assertThat(store.get(new Object[] {1})).containsExactly(1, 2L, 30L, 2L);
            assertThat(store.get(new Object[] {2})).as("a group without rows").isNull();
            assertThat(store.get(new Object[] {4})).as("a group never seen").isNull();
            List<Boolean> rowsHeld = new ArrayList<>();
            try (var all = store.all()) {
                all.forEachRemaining(entry -> {
                    rowsHeld.add(store.holdsRow(entry.value));
                    assertThat(store.encodedRow(entry) == null).isEqualTo(!store.holdsRow(entry.value));
                });
            }
            assertThat(rowsHeld).as("groups 1, 2 and 3 are kept; only 1 has rows").containsExactlyInAnyOrder(true, false, false);
        }
    }

    @Test
    void aGlobalAggregateKeepsItsOneRowWhenEveryRowIsDeleted() {
        try (ViewHarness harness = orders()) {
            harness.view("CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n, sum(v) AS s FROM orders");
            harness.upsert("orders", 1L, 1, 10).upsert("orders", 2L, 2, 30).delete("orders", 1L).delete("orders", 2L);

            assertThat(harness.rows()).containsExactly(Arrays.asList(0L, null));
            assertThat(harness.encodedStore().get(new Object[0])).containsExactly(0L, null);
        }
    }

    @Test
    void aScanReadsOnlyTheColumnsItAsksFor() {
        try (ViewHarness harness = orders()) {
            harness.view("CREATE MATERIALIZED VIEW m AS SELECT g, count(*) AS n, avg(v) AS a FROM orders GROUP BY g");
            harness.upsert("orders", 1L, 1, 10).upsert("orders", 2L, 1, 15);

            EncodedViewStore.Partition store = harness.encodedStore();
            try (var all = store.all()) {
                var entry = all.next();
                assertThat(store.row(entry, new int[] {0, 2})).containsExactly(1, store.row(entry, null)[2]);
                assertThat(store.row(entry, null)[2]).hasToString("12.5000000000000000");
                assertThat(all.hasNext()).isFalse();
            }
        }
    }

    @Test
    void aViewOfAnAggregateThatKeepsItsGroupsValuesKeepsItsOwnRows() {
        Map<String, Object> results = Map.of("min(v)", 10, "max(v)", 10, "count(DISTINCT v)", 1L, "sum(DISTINCT v)", 10L);
        results.forEach((aggregate, result) -> {
            try (ViewHarness harness = orders()) {
                var view = harness.view("CREATE MATERIALIZED VIEW m AS SELECT g, count(*) AS n, " + aggregate
                    + " AS x FROM orders GROUP BY g");
                harness.upsert("orders", 1L, 1, 10).upsert("orders", 2L, 1, 15).delete("orders", 2L);

                assertThat(view.plan().rowsFromAggregate()).as(aggregate).isFalse();
                assertThat(view.plan().store()).isEqualTo("rows");
                assertThat(harness.rows()).containsExactly(List.of(1, 1L, result));
            }
        });
    }

    @Test
    void aViewWithACalculationOverItsAggregateKeepsItsOwnRows() {
        try (ViewHarness harness = orders()) {
            var view = harness.view("CREATE MATERIALIZED VIEW m AS SELECT g, count(*) AS n FROM orders GROUP BY g "
                + "HAVING count(*) > 1");
            harness.upsert("orders", 1L, 1, 10).upsert("orders", 2L, 1, 15).upsert("orders", 3L, 2, 15);

            assertThat(view.plan().rowsFromAggregate()).isFalse();
            assertThat(view.plan().store()).isEqualTo("rows");
            assertThat(harness.rows()).containsExactly(List.of(1, 2L));
        }
    }
}
