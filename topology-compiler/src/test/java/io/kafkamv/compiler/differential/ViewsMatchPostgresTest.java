package io.kafkamv.compiler.differential;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.compiler.topology.ViewHarness;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Differential test: random histories of inserts, updates and deletes on a table; after each batch,
 * every view's contents equal what PostgreSQL returns for the same query over the same rows.
 * A failing history is shrunk and its seed printed by jqwik, and re-run first next time.
 */
class ViewsMatchPostgresTest {

    static final List<String> QUERIES = List.of(
        "SELECT id, customer, amount FROM orders WHERE amount > 5",
        "SELECT id, amount * 2 + 1 AS x, upper(customer) AS u FROM orders WHERE customer IS NOT NULL",
        "SELECT customer, count(*) AS n, sum(amount) AS s, min(amount) AS lo, max(amount) AS hi FROM orders GROUP BY customer",
        "SELECT customer, count(DISTINCT amount) AS d FROM orders GROUP BY customer HAVING count(*) > 1",
        "SELECT DISTINCT customer FROM orders",
        "SELECT amount % 3 AS bucket, avg(amount) AS a, count(amount) AS c FROM orders GROUP BY amount % 3",
        "SELECT CASE WHEN amount IS NULL THEN 'none' WHEN amount < 10 THEN 'low' ELSE 'high' END AS band, "
            + "count(*) AS n FROM orders GROUP BY CASE WHEN amount IS NULL THEN 'none' WHEN amount < 10 THEN 'low' ELSE 'high' END",
        "SELECT coalesce(customer, '?') AS who, max(amount) - min(amount) AS spread FROM orders WHERE id % 2 = 0 GROUP BY coalesce(customer, '?')",
        "SELECT count(*) AS n, sum(amount) AS s FROM orders",
        "SELECT id, amount FROM orders WHERE amount > 10 UNION ALL SELECT id, amount * 2 FROM orders WHERE customer = 'ann'",
        "SELECT customer FROM orders WHERE amount > 5 UNION SELECT customer FROM orders WHERE amount < 0",
        "SELECT u.c, count(*) AS n FROM (SELECT customer AS c FROM orders UNION ALL SELECT customer FROM orders "
            + "WHERE amount IS NULL) AS u GROUP BY u.c");

    private static Postgres postgres;

    @BeforeContainer
    static void connect() throws SQLException {
        postgres = new Postgres();
    }

    @AfterContainer
    static void disconnect() throws SQLException {
        postgres.close();
    }

    @Property(tries = 25)
    void everyViewEqualsPostgresAfterEveryBatch(@ForAll("histories") List<List<OrdersOp>> batches) throws SQLException {
        postgres.resetOrders();
        List<ViewHarness> views = new ArrayList<>();
        try {
            for (String query : QUERIES) {
                ViewHarness harness = new ViewHarness().table("orders", List.of("id"),
                    new Column("id", SqlType.BIGINT, false), Column.of("customer", SqlType.VARCHAR),
                    Column.of("amount", SqlType.INTEGER));
                harness.view("CREATE MATERIALIZED VIEW v AS " + query);
                views.add(harness);
            }
            for (List<OrdersOp> batch : batches) {
                for (OrdersOp op : batch) {
                    postgres.apply(op);
                    for (ViewHarness view : views) {
                        if (op.delete()) {
                            view.delete("orders", op.id());
                        } else {
                            view.upsert("orders", op.id(), op.customer(), op.amount());
                        }
                    }
                }
                for (int i = 0; i < QUERIES.size(); i++) {
                    List<List<String>> expected = postgres.rows(QUERIES.get(i));
                    List<List<String>> actual = views.get(i).rows().stream()
                        .map(row -> row.stream().map(Postgres::normalize).toList())
                        .toList();
                    assertThat(actual).as("view: %s", QUERIES.get(i)).containsExactlyInAnyOrderElementsOf(expected);
                }
            }
        } finally {
            views.forEach(ViewHarness::close);
        }
    }

    /** The first batch inserts at least one row: a view learns of its input only from changes. */
    @Provide
    Arbitrary<List<List<OrdersOp>>> histories() {
        Arbitrary<OrdersOp> upsert = Combinators.combine(
            Arbitraries.longs().between(0, 15),
            Arbitraries.of("ann", "bob", "cy").injectNull(0.15),
            Arbitraries.integers().between(-5, 20).injectNull(0.15)).as(OrdersOp::upsert);
        Arbitrary<OrdersOp> delete = Arbitraries.longs().between(0, 15).map(OrdersOp::delete);
        Arbitrary<OrdersOp> op = Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, upsert), net.jqwik.api.Tuple.of(1, delete));
        Arbitrary<List<OrdersOp>> first = upsert.list().ofMinSize(1).ofMaxSize(12);
        Arbitrary<List<OrdersOp>> later = op.list().ofMinSize(1).ofMaxSize(12);
        return Combinators.combine(first, later.list().ofMaxSize(5)).as((head, tail) -> {
            List<List<OrdersOp>> all = new ArrayList<>();
            all.add(head);
            all.addAll(tail);
            return all;
        });
    }
}
