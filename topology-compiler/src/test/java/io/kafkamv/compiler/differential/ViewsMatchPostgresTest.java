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
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Differential test: random histories of inserts, updates and deletes on two tables; after each batch,
 * every view's contents equal what PostgreSQL returns for the same query over the same rows.
 * A failing history is shrunk and its seed printed by jqwik, and re-run first next time.
 */
class ViewsMatchPostgresTest {

    static final List<String> QUERIES = List.of(
        "SELECT id, customer, amount FROM orders WHERE amount > 5",
        "SELECT id, amount * 2 + 1 AS x, upper(customer) AS u, length(customer) AS len FROM orders WHERE customer IS NOT NULL",
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
            + "WHERE amount IS NULL) AS u GROUP BY u.c",
        "SELECT o.id, o.amount, c.tier FROM orders o JOIN customers c ON o.customer = c.name",
        "SELECT o.id, c.name, c.tier FROM orders o LEFT JOIN customers c ON o.customer = c.name",
        "SELECT o.id, c.name FROM orders o RIGHT JOIN customers c ON o.customer = c.name AND o.amount > 3",
        "SELECT o.id, o.customer, c.name, c.region FROM orders o FULL JOIN customers c ON o.customer = c.name",
        "SELECT c.region, count(*) AS n, sum(o.amount) AS s, max(c.tier) AS t FROM orders o "
            + "JOIN customers c ON o.customer = c.name GROUP BY c.region",
        "SELECT a.id, b.id AS other FROM orders a JOIN orders b ON a.amount = b.amount AND a.id < b.id",
        "SELECT o.id, c.name FROM orders o JOIN customers c ON o.amount = c.tier + 1 WHERE c.region <> 'south'",
        "SELECT o.id, c.tier, x.id AS same_tier FROM orders o JOIN customers c ON o.customer = c.name "
            + "LEFT JOIN orders x ON x.amount = c.tier",
        "SELECT id, amount FROM orders ORDER BY amount DESC, id LIMIT 3",
        "SELECT id, customer FROM orders ORDER BY amount, id LIMIT 4 OFFSET 2",
        "SELECT customer, id, amount, rn FROM (SELECT customer, id, amount, ROW_NUMBER() OVER "
            + "(PARTITION BY customer ORDER BY amount DESC NULLS LAST, id) AS rn FROM orders) t WHERE rn <= 2",
        "SELECT customer, total FROM (SELECT customer, sum(amount) AS total FROM orders GROUP BY customer) s "
            + "ORDER BY total DESC NULLS LAST, customer LIMIT 2",
        "SELECT id FROM orders WHERE customer IN (SELECT name FROM customers WHERE tier > 1)",
        "SELECT id, amount FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.name = o.customer)",
        "SELECT id FROM orders WHERE amount > (SELECT avg(amount) FROM orders)",
        "SELECT name, (SELECT count(*) FROM orders o WHERE o.customer = c.name) AS n FROM customers c",
        "SELECT customer FROM orders INTERSECT SELECT name FROM customers WHERE tier >= 0",
        "SELECT name FROM customers EXCEPT SELECT customer FROM orders WHERE amount > 3",
        "SELECT customer, count(*) FILTER (WHERE amount > 5) AS big, sum(amount) FILTER (WHERE amount < 3) AS small "
            + "FROM orders GROUP BY customer");

    private static Postgres postgres;

    @BeforeContainer
    static void connect() throws SQLException {
        postgres = new Postgres();
    }

    @AfterContainer
    static void disconnect() throws SQLException {
        // Null when connecting failed: that error, not this one, is the one to see (start it with bin/test-postgres start).
        if (postgres != null) {
            postgres.close();
        }
    }

    @Property(tries = 25)
    void everyViewEqualsPostgresAfterEveryBatch(@ForAll("histories") List<List<Change>> batches) throws SQLException {
        postgres.resetTables();
        List<ViewHarness> views = new ArrayList<>();
        try {
            for (String query : QUERIES) {
                ViewHarness harness = new ViewHarness()
                    .table("orders", List.of("id"), new Column("id", SqlType.BIGINT, false),
                        Column.of("customer", SqlType.VARCHAR), Column.of("amount", SqlType.INTEGER))
                    .table("customers", List.of("name"), new Column("name", SqlType.VARCHAR, false),
                        Column.of("tier", SqlType.INTEGER), Column.of("region", SqlType.VARCHAR));
                harness.view("CREATE MATERIALIZED VIEW v AS " + query);
                views.add(harness);
            }
            for (List<Change> batch : batches) {
                for (Change change : batch) {
                    postgres.apply(change);
                    for (ViewHarness view : views) {
                        if (change.delete()) {
                            view.delete(change.table().name, change.key());
                        } else {
                            view.upsert(change.table().name, change.key(), change.first(), change.second());
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

    /**
     * The first batch inserts at least one order: a view learns of its input only from changes.
     * Customer "dee" never orders, so outer joins have rows on both sides without a match.
     */
    @Provide
    Arbitrary<List<List<Change>>> histories() {
        Arbitrary<Change> order = Combinators.combine(
            Arbitraries.longs().between(0, 15),
            Arbitraries.of("ann", "bob", "cy").injectNull(0.15),
            Arbitraries.integers().between(-5, 20).injectNull(0.15)).as(Change::order);
        Arbitrary<Change> deleteOrder = Arbitraries.longs().between(0, 15).map(Change::deleteOrder);
        Arbitrary<Change> customer = Combinators.combine(
            Arbitraries.of("ann", "bob", "cy", "dee"),
            Arbitraries.integers().between(-1, 6).injectNull(0.15),
            Arbitraries.of("north", "south").injectNull(0.15)).as(Change::customer);
        Arbitrary<Change> deleteCustomer = Arbitraries.of("ann", "bob", "cy", "dee").map(Change::deleteCustomer);
        Arbitrary<Change> change = Arbitraries.frequencyOf(
            Tuple.of(6, order), Tuple.of(2, deleteOrder), Tuple.of(3, customer), Tuple.of(1, deleteCustomer));
        Arbitrary<List<Change>> first = order.list().ofMinSize(1).ofMaxSize(12);
        Arbitrary<List<Change>> later = change.list().ofMinSize(1).ofMaxSize(12);
        return Combinators.combine(first, later.list().ofMaxSize(5)).as((head, tail) -> {
            List<List<Change>> all = new ArrayList<>();
            all.add(head);
            all.addAll(tail);
            return all;
        });
    }
}
