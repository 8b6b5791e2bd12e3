package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class TopNTopologyTest {

    private static ViewHarness orders() {
        return new ViewHarness().table("orders", List.of("id"), new Column("id", SqlType.BIGINT, false),
            Column.of("customer", SqlType.VARCHAR), Column.of("amount", SqlType.DECIMAL));
    }

    @Test
    void deletingATopRowBringsInTheNextOne() {
        try (ViewHarness harness = orders()) {
            harness.view("CREATE MATERIALIZED VIEW top2 AS SELECT id FROM orders ORDER BY amount DESC LIMIT 2");

            harness.upsert("orders", 1L, "ann", dec("-1.5")).upsert("orders", 2L, "bob", dec("10"))
                .upsert("orders", 3L, "cy", dec("9.99")).upsert("orders", 4L, "dee", dec("-1.25"));
            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of(2L), List.of(3L));

            harness.delete("orders", 2L);
            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of(3L), List.of(4L));

            harness.upsert("orders", 1L, "ann", dec("100"));
            assertThat(harness.rows()).containsExactlyInAnyOrder(List.of(1L), List.of(3L));
        }
    }

    @Test
    void rowNumbersPerGroupFollowTheOrder() {
        try (ViewHarness harness = orders()) {
            harness.view("CREATE MATERIALIZED VIEW firsts AS SELECT customer, id, rn FROM (SELECT customer, id, "
                + "ROW_NUMBER() OVER (PARTITION BY customer ORDER BY amount) AS rn FROM orders) t WHERE rn <= 2");

            harness.upsert("orders", 1L, "ann", dec("3")).upsert("orders", 2L, "ann", dec("1"))
                .upsert("orders", 3L, "ann", dec("2")).upsert("orders", 4L, "bob", dec("5"));
            assertThat(harness.rows()).containsExactlyInAnyOrder(
                List.of("ann", 2L, 1L), List.of("ann", 3L, 2L), List.of("bob", 4L, 1L));

            harness.upsert("orders", 1L, "ann", dec("0"));
            assertThat(harness.rows()).containsExactlyInAnyOrder(
                List.of("ann", 1L, 1L), List.of("ann", 2L, 2L), List.of("bob", 4L, 1L));
        }
    }

    private static java.math.BigDecimal dec(String value) {
        return new java.math.BigDecimal(value);
    }
}
