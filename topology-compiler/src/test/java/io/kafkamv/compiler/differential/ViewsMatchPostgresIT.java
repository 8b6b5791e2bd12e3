package io.kafkamv.compiler.differential;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.compiler.CompiledView;
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
 * Differential test: random histories of inserts, updates and deletes on three tables; after each batch,
 * every view's contents equal what PostgreSQL returns for the same query over the same rows. That
 * holds for views over tables, windowed views, and views over other views.
 * A failing history is shrunk and its seed printed by jqwik, and re-run first next time.
 */
class ViewsMatchPostgresIT {

    static final List<String> QUERIES = List.of(
        "SELECT id, customer, amount FROM orders WHERE amount > 5",
        "SELECT id, amount * 2 + 1 AS x, upper(customer) AS u, length(customer) AS len FROM orders WHERE customer IS NOT NULL",
        "SELECT customer, count(*) AS n, sum(amount) AS s, min(amount) AS lo, max(amount) AS hi FROM orders GROUP BY customer",
        "SELECT customer, count(DISTINCT amount) AS d FROM orders GROUP BY customer HAVING count(*) > 1",
        "SELECT DISTINCT customer FROM orders",
        "SELECT id, customer ~ '^a' AS a, customer ~* 'N+' AS n FROM orders WHERE customer !~ 'x$' AND customer !~* '^Z'",
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

    /** Window table functions, and the same windows as PostgreSQL computes them (date_bin from the epoch). */
    static final List<Translated> WINDOWED = List.of(
        new Translated("SELECT window_start, window_end, count(*) AS n, sum(amount) AS s "
            + "FROM TUMBLE(clicks, ts, INTERVAL '5' MINUTE) GROUP BY window_start, window_end",
            "SELECT date_bin('5 minutes', ts, TIMESTAMP '1970-01-01') AS window_start, "
                + "date_bin('5 minutes', ts, TIMESTAMP '1970-01-01') + INTERVAL '5 minutes' AS window_end, "
                + "count(*) AS n, sum(amount) AS s FROM clicks WHERE ts IS NOT NULL GROUP BY 1, 2"),
        new Translated("SELECT window_start, count(*) AS n, max(amount) AS hi "
            + "FROM HOP(clicks, ts, INTERVAL '5' MINUTE, INTERVAL '15' MINUTE) GROUP BY window_start",
            "SELECT w AS window_start, count(*) AS n, max(amount) AS hi FROM clicks, LATERAL generate_series("
                + "date_bin('5 minutes', ts, TIMESTAMP '1970-01-01') - INTERVAL '10 minutes', "
                + "date_bin('5 minutes', ts, TIMESTAMP '1970-01-01'), INTERVAL '5 minutes') AS w "
                + "WHERE ts IS NOT NULL GROUP BY w"),
        new Translated("SELECT window_start, id, amount FROM TUMBLE(clicks, ts, INTERVAL '10' MINUTE) WHERE amount > 3",
            "SELECT date_bin('10 minutes', ts, TIMESTAMP '1970-01-01') AS window_start, id, amount FROM clicks "
                + "WHERE ts IS NOT NULL AND amount > 3"));

    /** Views over views: the upper view reads the lower one's changes, as it would read its topic. */
    static final List<Layered> LAYERED = List.of(
        new Layered("revenue", "SELECT customer, sum(amount) AS total, count(*) AS n FROM orders GROUP BY customer",
            "SELECT customer, total FROM revenue WHERE total > 10"),
        new Layered("revenue", "SELECT customer, sum(amount) AS total, count(*) AS n FROM orders GROUP BY customer",
            "SELECT n, count(*) AS customers, sum(total) AS total FROM revenue GROUP BY n"),
        new Layered("revenue", "SELECT customer, sum(amount) AS total, count(*) AS n FROM orders GROUP BY customer",
            "SELECT r.customer, r.total, c.tier FROM revenue r LEFT JOIN customers c ON r.customer = c.name"),
        new Layered("placed", "SELECT o.id, o.amount, c.region FROM orders o JOIN customers c ON o.customer = c.name",
            "SELECT region, count(*) AS n, min(amount) AS lo FROM placed GROUP BY region"),
        new Layered("top", "SELECT id, customer, amount FROM orders ORDER BY amount DESC, id LIMIT 5",
            "SELECT customer, count(*) AS n FROM top GROUP BY customer"),
        new Layered("per_window", "SELECT window_start, count(*) AS n FROM TUMBLE(clicks, ts, INTERVAL '5' MINUTE) "
            + "GROUP BY window_start", "SELECT n, count(*) AS windows, min(window_start) AS first FROM per_window GROUP BY n"));

    /** A query in our SQL and the same query as PostgreSQL writes it. */
    record Translated(String view, String postgres) {
    }

    /** {@code upper} reads {@code lower}'s view under {@code name}; PostgreSQL reads it as a common table expression. */
    record Layered(String name, String lower, String upper) {
        String postgres() {
            return "WITH " + name + " AS (" + postgresForm(lower) + ") " + upper;
        }

        private static String postgresForm(String query) {
            return query.replace("FROM TUMBLE(clicks, ts, INTERVAL '5' MINUTE)",
                "FROM (SELECT date_bin('5 minutes', ts, TIMESTAMP '1970-01-01') AS window_start FROM clicks "
                    + "WHERE ts IS NOT NULL) AS windowed");
        }
    }

    /** 2026-11-30 09:58:30 UTC: windows of five minutes start on the minute, not on this. */
    private static final long CLICKS_FROM = 1_796_032_710_000L;

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
        List<String> expectations = new ArrayList<>();
        List<ViewHarness> views = new ArrayList<>();
        List<ViewHarness> lowerViews = new ArrayList<>();
        List<ViewHarness> upperViews = new ArrayList<>();
        try {
            for (String query : QUERIES) {
                views.add(overTables(query));
                expectations.add(query);
            }
            for (Translated query : WINDOWED) {
                views.add(overTables(query.view()));
                expectations.add(query.postgres());
            }
            for (Layered layered : LAYERED) {
                ViewHarness lower = tables();
                CompiledView compiled = lower.view("CREATE MATERIALIZED VIEW " + layered.name() + " AS " + layered.lower());
                lowerViews.add(lower);
                ViewHarness upper = tables().relation(compiled.relation());
                upper.view("CREATE MATERIALIZED VIEW v AS " + layered.upper());
                upperViews.add(upper);
            }
            for (List<Change> batch : batches) {
                for (Change change : batch) {
                    postgres.apply(change);
                    for (ViewHarness view : allOf(views, lowerViews, upperViews)) {
                        if (change.delete()) {
                            view.delete(change.table().name, change.key());
                        } else {
                            view.upsert(change.table().name, change.key(), change.first(), change.second());
                        }
                    }
                }
                for (int i = 0; i < views.size(); i++) {
                    assertMatches(views.get(i).rows(), expectations.get(i));
                }
                for (int i = 0; i < LAYERED.size(); i++) {
                    lowerViews.get(i).rowsPipedTo(upperViews.get(i));
                    assertMatches(upperViews.get(i).rows(), LAYERED.get(i).postgres());
                }
            }
        } finally {
            allOf(views, lowerViews, upperViews).forEach(ViewHarness::close);
        }
    }

    private static void assertMatches(List<List<Object>> rows, String postgresQuery) throws SQLException {
        List<List<String>> expected = postgres.rows(postgresQuery);
        List<List<String>> actual = rows.stream().map(row -> row.stream().map(Postgres::normalize).toList()).toList();
        assertThat(actual).as("view: %s", postgresQuery).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static ViewHarness overTables(String query) {
        ViewHarness harness = tables();
        harness.view("CREATE MATERIALIZED VIEW v AS " + query);
        return harness;
    }

    private static ViewHarness tables() {
        return new ViewHarness()
            .table("orders", List.of("id"), new Column("id", SqlType.BIGINT, false),
                Column.of("customer", SqlType.VARCHAR), Column.of("amount", SqlType.INTEGER))
            .table("customers", List.of("name"), new Column("name", SqlType.VARCHAR, false),
                Column.of("tier", SqlType.INTEGER), Column.of("region", SqlType.VARCHAR))
            .table("clicks", List.of("id"), new Column("id", SqlType.BIGINT, false),
                Column.of("ts", SqlType.TIMESTAMP), Column.of("amount", SqlType.INTEGER));
    }

    @SafeVarargs
    private static List<ViewHarness> allOf(List<ViewHarness>... lists) {
        List<ViewHarness> all = new ArrayList<>();
        for (List<ViewHarness> list : lists) {
            all.addAll(list);
        }
        return all;
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
        // Clicks within half an hour, on second boundaries and off them, so that windows share rows and rows move between windows.
        Arbitrary<Change> click = Combinators.combine(
            Arbitraries.longs().between(0, 9),
            Arbitraries.longs().between(0, 30 * 60_000L).map(offset -> CLICKS_FROM + offset).injectNull(0.1),
            Arbitraries.integers().between(-5, 20).injectNull(0.15)).as(Change::click);
        Arbitrary<Change> deleteClick = Arbitraries.longs().between(0, 9).map(Change::deleteClick);
        Arbitrary<Change> change = Arbitraries.frequencyOf(
            Tuple.of(6, order), Tuple.of(2, deleteOrder), Tuple.of(3, customer), Tuple.of(1, deleteCustomer),
            Tuple.of(4, click), Tuple.of(1, deleteClick));
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
