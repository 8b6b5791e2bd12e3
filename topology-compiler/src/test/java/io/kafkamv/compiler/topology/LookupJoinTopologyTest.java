package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.plan.LookupJoinStep;
import io.kafkamv.compiler.plan.StepOutput;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

/** {@code JOIN t FOR SYSTEM_TIME AS OF PROCTIME()}: each row meets the table as it is when the row is processed. */
class LookupJoinTopologyTest {

    private static final String LOOKUP = " FOR SYSTEM_TIME AS OF PROCTIME() ";

    private static ViewHarness eventsOrdersAndCustomers() {
        return new ViewHarness()
            .appendOnlyTable("events", new Column("id", SqlType.BIGINT, false), Column.of("customer", SqlType.VARCHAR),
                Column.of("amount", SqlType.INTEGER))
            .table("orders", List.of("id"), new Column("id", SqlType.BIGINT, false),
                Column.of("customer", SqlType.VARCHAR), Column.of("amount", SqlType.INTEGER))
            .table("customers", List.of("name"), new Column("name", SqlType.VARCHAR, false),
                Column.of("tier", SqlType.INTEGER))
            .table("accounts", List.of("number"), new Column("number", SqlType.BIGINT, false),
                Column.of("owner", SqlType.VARCHAR));
    }

    @Test
    void eachInsertedRowMeetsTheTableAsItIsThenAndLaterChangesOfTheTableChangeNothing() {
        try (ViewHarness harness = eventsOrdersAndCustomers()) {
            var view = harness.view("CREATE MATERIALIZED VIEW j AS SELECT e.id, c.tier FROM events e JOIN customers"
                + LOOKUP + "c ON e.customer = c.name");
            LookupJoinStep step = (LookupJoinStep) view.plan().steps().stream()
                .filter(LookupJoinStep.class::isInstance).findFirst().orElseThrow();
            assertThat(view.plan().output(step.id())).as("inserts looked up stay inserts").isEqualTo(StepOutput.INSERTS);
            assertThat(view.plan().sourceTopics()).containsExactly("kmv-table-events");
            assertThat(view.plan().lookupTopics()).containsExactly("kmv-table-customers");

            harness.upsert("customers", "ann", 1);
            harness.insert("events", 1, 1L, "ann", 5).insert("events", 2, 2L, "bob", 7);
            assertThat(harness.rows()).containsExactly(row(1L, 1));

            harness.upsert("customers", "ann", 2).upsert("customers", "bob", 9);
            assertThat(harness.rows()).as("rows joined before keep what they met").containsExactly(row(1L, 1));

            harness.insert("events", 3, 3L, "ann", 1).insert("events", 4, 4L, "bob", 1).insert("events", 5, 5L, null, 1);
            harness.delete("customers", "bob");
            assertThat(harness.rows()).containsExactlyInAnyOrder(row(1L, 1), row(3L, 2), row(4L, 9));
        }
    }

    @Test
    void aChangedRowLooksTheTableUpAgainAndALeftJoinPadsRowsWithoutMatch() {
        try (ViewHarness harness = eventsOrdersAndCustomers()) {
            var view = harness.view("CREATE MATERIALIZED VIEW j AS SELECT o.id, c.tier FROM orders o LEFT JOIN customers"
                + LOOKUP + "c ON o.customer = c.name");
            assertThat(view.plan().appendOnly()).isFalse();

            harness.upsert("orders", 1L, "ann", 5).upsert("orders", 2L, "bob", 7);
            assertThat(harness.rows()).containsExactlyInAnyOrder(row(1L, null), row(2L, null));

            harness.upsert("customers", "ann", 3);
            assertThat(harness.rows()).containsExactlyInAnyOrder(row(1L, null), row(2L, null));

            harness.upsert("orders", 1L, "ann", 6).delete("orders", 2L);
            assertThat(harness.rows()).containsExactly(row(1L, 3));
        }
    }

    @Test
    void anAggregateOverALookupRetractsWhatARowJoinedThenNotWhatItWouldJoinNow() {
        try (ViewHarness harness = eventsOrdersAndCustomers()) {
            harness.view("CREATE MATERIALIZED VIEW j AS SELECT c.tier, sum(o.amount) AS total FROM orders o JOIN customers"
                + LOOKUP + "c ON o.customer = c.name GROUP BY c.tier");

            harness.upsert("customers", "ann", 1).upsert("orders", 1L, "ann", 5);
            assertThat(harness.rows()).containsExactly(row(1, 5L));

            harness.upsert("customers", "ann", 2).upsert("orders", 1L, "ann", 7);
            assertThat(harness.rows()).containsExactly(row(2, 7L));

            harness.upsert("customers", "ann", 3).delete("orders", 1L);
            assertThat(harness.rows()).isEmpty();
        }
    }

    @Test
    void theTablesFilterInOnMakesNoMatchAndIntegersOfAnotherTypeFindTheirKey() {
        try (ViewHarness harness = eventsOrdersAndCustomers()) {
            harness.view("CREATE MATERIALIZED VIEW j AS SELECT o.id, c.tier, a.owner FROM orders o LEFT JOIN customers"
                + LOOKUP + "c ON o.customer = c.name AND c.tier > 1 JOIN accounts" + LOOKUP + "a ON o.amount = a.number");

            harness.upsert("customers", "ann", 1).upsert("customers", "bob", 2)
                .upsert("accounts", 5L, "ann's").upsert("accounts", 7L, "bob's");
            harness.upsert("orders", 1L, "ann", 5).upsert("orders", 2L, "bob", 7).upsert("orders", 3L, "bob", 8);
            assertThat(harness.rows()).containsExactlyInAnyOrder(row(1L, null, "ann's"), row(2L, 2, "bob's"));
        }
    }

    @Test
    void whatALookupCannotBeIsRefusedWithAHint() {
        try (ViewHarness harness = eventsOrdersAndCustomers()) {
            assertRefused(harness, "SELECT e.id FROM events e JOIN customers FOR SYSTEM_TIME AS OF TIMESTAMP '2020-01-01 00:00:00' c "
                + "ON e.customer = c.name", "FOR SYSTEM_TIME AS OF is supported with PROCTIME() only");
            assertRefused(harness, "SELECT e.id, PROCTIME() AS t FROM events e",
                "PROCTIME() is supported only in FOR SYSTEM_TIME AS OF PROCTIME()");
            assertRefused(harness, "SELECT o.id FROM orders o JOIN events" + LOOKUP + "e ON o.id = e.id",
                "events has no primary key to be looked up by");
            assertRefused(harness, "SELECT o.id FROM orders o RIGHT JOIN customers" + LOOKUP + "c ON o.customer = c.name",
                "RIGHT JOIN of a table looked up FOR SYSTEM_TIME AS OF is not supported");
            assertRefused(harness, "SELECT o.id FROM orders o JOIN customers" + LOOKUP + "c ON o.amount = c.tier",
                "a lookup join must compare every column of customers's key (name) with a value of the same type");
            assertRefused(harness, "SELECT o.id FROM orders o JOIN customers" + LOOKUP + "c ON o.customer = c.name "
                + "JOIN customers d ON o.customer = d.name", "a view cannot both read customers and look it up");
            assertRefused(harness, "SELECT c.name FROM customers" + LOOKUP + "c JOIN orders o ON o.customer = c.name",
                "FOR SYSTEM_TIME AS OF is supported only on the table a JOIN looks up, on its right");
        }
    }

    private static void assertRefused(ViewHarness harness, String query, String message) {
        String sql = "CREATE MATERIALIZED VIEW j AS " + query;
        assertThatThrownBy(() -> harness.view(sql))
            .isInstanceOfSatisfying(CompileException.class, e -> {
                assertThat(e.category()).isEqualTo(CompileException.Category.UNSUPPORTED);
                assertThat(e.getMessage()).startsWith(message);
                assertThat(e.hint()).isPresent();
                assertThat(e.position()).as("points into the statement").isPositive();
            });
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
