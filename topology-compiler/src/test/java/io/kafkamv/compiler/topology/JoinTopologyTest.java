package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class JoinTopologyTest {

    private static ViewHarness ordersAndCustomers() {
        return new ViewHarness()
            .table("orders", List.of("id"), new Column("id", SqlType.BIGINT, false),
                Column.of("customer", SqlType.VARCHAR), Column.of("amount", SqlType.INTEGER))
            .table("customers", List.of("name"), new Column("name", SqlType.VARCHAR, false),
                Column.of("tier", SqlType.INTEGER));
    }

    @Test
    void innerJoinFollowsChangesOnBothSides() {
        try (ViewHarness harness = ordersAndCustomers()) {
            harness.view("CREATE MATERIALIZED VIEW j AS SELECT o.id, c.name, c.tier FROM orders o "
                + "JOIN customers c ON o.customer = c.name");

            harness.upsert("orders", 1L, "ann", 5).upsert("orders", 2L, "ann", 7).upsert("orders", 3L, "bob", 1);
            assertThat(harness.rows()).isEmpty();

            harness.upsert("customers", "ann", 1);
            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of(1L, "ann", 1), List.of(2L, "ann", 1));

            harness.upsert("customers", "ann", 2).upsert("orders", 2L, "bob", 7).upsert("customers", "bob", 9);
            assertThat(harness.rows()).containsExactlyInAnyOrder(
                List.of(1L, "ann", 2), List.of(2L, "bob", 9), List.of(3L, "bob", 9));

            harness.delete("customers", "bob").delete("orders", 1L);
            assertThat(harness.rows()).isEmpty();
        }
    }

    @Test
    void leftJoinPadsRowsWithoutMatchAndUnpadsThemWhenOneArrives() {
        try (ViewHarness harness = ordersAndCustomers()) {
            harness.view("CREATE MATERIALIZED VIEW j AS SELECT o.id, c.tier FROM orders o "
                + "LEFT JOIN customers c ON o.customer = c.name");

            harness.upsert("orders", 1L, "ann", 5).upsert("orders", 2L, null, 7);
            assertThat(harness.rows()).containsExactlyInAnyOrder(row(1L, null), row(2L, null));

            harness.upsert("customers", "ann", 3);
            assertThat(harness.rows()).containsExactlyInAnyOrder(row(1L, 3), row(2L, null));

            harness.delete("customers", "ann");
            assertThat(harness.rows()).containsExactlyInAnyOrder(row(1L, null), row(2L, null));
        }
    }

    @Test
    void fullJoinKeepsUnmatchedRowsOfBothSides() {
        try (ViewHarness harness = ordersAndCustomers()) {
            harness.view("CREATE MATERIALIZED VIEW j AS SELECT o.id, c.name FROM orders o "
                + "FULL JOIN customers c ON o.customer = c.name");

            harness.upsert("customers", "ann", 1).upsert("customers", "dee", 2);
            assertThat(harness.rows()).containsExactlyInAnyOrder(row(null, "ann"), row(null, "dee"));

            harness.upsert("orders", 1L, "ann", 5).upsert("orders", 2L, "zed", 5);
            assertThat(harness.rows()).containsExactlyInAnyOrder(row(1L, "ann"), row(2L, null), row(null, "dee"));

            harness.upsert("orders", 1L, "dee", 5);
            assertThat(harness.rows()).containsExactlyInAnyOrder(row(null, "ann"), row(1L, "dee"), row(2L, null));
        }
    }

    @Test
    void keysOfDifferentNumericTypesMeetByValue() {
        try (ViewHarness harness = new ViewHarness()
            .table("a", List.of("id"), new Column("id", SqlType.INTEGER, false), Column.of("x", SqlType.INTEGER))
            .table("b", List.of("id"), new Column("id", SqlType.BIGINT, false), Column.of("y", SqlType.DECIMAL))) {
            harness.view("CREATE MATERIALIZED VIEW j AS SELECT a.id, b.id AS bid FROM a JOIN b ON a.x = b.y");

            harness.upsert("a", 1, 10).upsert("b", 7L, new java.math.BigDecimal("10.00"));

            assertThat(harness.rows()).containsExactly(row(1, 7L));
        }
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
