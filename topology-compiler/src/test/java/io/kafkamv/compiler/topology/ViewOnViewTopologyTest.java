package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.kafkamv.compiler.CompiledView;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

/** A view over a view whose rows change must follow the changes, not take each new row for an insert. */
class ViewOnViewTopologyTest {

    private static final Column ID = new Column("id", SqlType.INTEGER, false);
    private static final Column CUSTOMER = Column.of("customer", SqlType.VARCHAR);
    private static final Column AMOUNT = Column.of("amount", SqlType.INTEGER);

    @Test
    void aFilterOverAnAggregateDropsAGroupWhoseTotalFallsBelowIt() {
        CompiledView revenue;
        try (ViewHarness orders = new ViewHarness().table("orders", List.of("id"), ID, CUSTOMER, AMOUNT)) {
            revenue = orders.view("CREATE MATERIALIZED VIEW revenue AS SELECT customer, sum(amount) AS total "
                + "FROM orders GROUP BY customer");
        }
        assertThat(revenue.relation().appendOnly()).as("an aggregate's rows change").isFalse();

        try (ViewHarness harness = new ViewHarness().relation(revenue.relation())) {
            harness.view("CREATE MATERIALIZED VIEW big AS SELECT customer FROM revenue WHERE total > 100");
            harness.upsert("revenue", "ann", 290L).upsert("revenue", "bob", 120L);
            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of("ann"), List.of("bob"));

            harness.upsert("revenue", "ann", 40L).delete("revenue", "bob");

            assertThat(harness.rows()).isEmpty();
            assertThat(harness.storedRows()).isEmpty();
        }
    }

    @Test
    void aViewOfInsertedRowsIsInsertOnlyToTheViewsOverIt() {
        try (ViewHarness events = new ViewHarness().appendOnlyTable("events", CUSTOMER, AMOUNT)) {
            CompiledView filtered = events.view("CREATE MATERIALIZED VIEW big_events AS SELECT customer FROM events "
                + "WHERE amount > 10");
            assertThat(filtered.relation().appendOnly()).isTrue();
        }
    }
}
