package io.kafkamv.it.views;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Joins, top-N, windows and JSONB through psql on a real broker with several partitions: the
 * exchanges these need run as real repartition topics here, not in a test driver.
 */
class StreamingSqlIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void joinsTopNAndWindowsFollowChanges() throws Exception {
        Psql psql = SERVICE.psql();
        Psql.Result created = psql.session(List.of(
            "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer TEXT, amount INT, ts TIMESTAMP, doc JSONB)",
            "CREATE TABLE customers (name TEXT PRIMARY KEY, tier INT)",
            "INSERT INTO orders SELECT g, 'c' || (g % 50), g % 7, TIMESTAMP '2026-11-29 10:00:00' + g * INTERVAL '1' SECOND, "
                + "'{\"channel\": \"' || CASE WHEN g % 2 = 0 THEN 'web' ELSE 'app' END || '\"}' FROM generate_series(1, 6000) g",
            "INSERT INTO customers SELECT 'c' || g, g % 4 FROM generate_series(0, 39) g",
            "FLUSH",
            "CREATE MATERIALIZED VIEW per_tier AS SELECT c.tier, count(*) AS n FROM orders o "
                + "JOIN customers c ON o.customer = c.name GROUP BY c.tier",
            "CREATE MATERIALIZED VIEW unmatched AS SELECT count(*) AS n FROM orders o "
                + "LEFT JOIN customers c ON o.customer = c.name WHERE c.name IS NULL",
            "CREATE MATERIALIZED VIEW newest AS SELECT id FROM orders ORDER BY ts DESC LIMIT 2",
            "CREATE MATERIALIZED VIEW per_minute AS SELECT window_start, count(*) AS n "
                + "FROM TUMBLE(orders, ts, INTERVAL '1' MINUTE) GROUP BY window_start",
            "CREATE MATERIALIZED VIEW per_channel AS SELECT doc ->> 'channel' AS channel, count(*) AS n "
                + "FROM orders GROUP BY doc ->> 'channel'",
            "SELECT tier, n FROM per_tier ORDER BY tier",
            "SELECT n FROM unmatched",
            "SELECT id FROM newest ORDER BY id",
            "SELECT count(*), min(n), max(n) FROM per_minute",
            "SELECT channel, n FROM per_channel ORDER BY channel"), "-A", "-t");

        assertThat(created.exitCode()).as(created.stderr()).isZero();
        assertThat(created.stdout()).endsWith(String.join("\n",
            "0|1200", "1|1200", "2|1200", "3|1200", "1200", "5999", "6000", "101|1|60", "app|3000", "web|3000", ""));

        psql.session(List.of("INSERT INTO customers VALUES ('c40', 3)", "DELETE FROM orders WHERE id = 6000"));
        await().atMost(Duration.ofSeconds(30)).until(() -> psql.value("SELECT n FROM unmatched"), "1080"::equals);
        await().atMost(Duration.ofSeconds(30)).until(() -> psql.value("SELECT n FROM per_tier WHERE tier = 3"), "1320"::equals);
        await().atMost(Duration.ofSeconds(30)).until(() -> psql.value("SELECT min(id) FROM newest"), "5998"::equals);
    }

    @Test
    void indexesAreBuiltInTheBackgroundAndAnswerLookupsByTheirColumns() throws Exception {
        Psql psql = SERVICE.psql();
        Psql.Result created = psql.session(List.of(
            "CREATE TABLE events (id BIGINT PRIMARY KEY, kind TEXT, n INT)",
            "INSERT INTO events SELECT g, 'k' || (g % 100), g % 5 FROM generate_series(1, 20000) g",
            "FLUSH",
            "CREATE MATERIALIZED VIEW nonzero AS SELECT id, kind, n FROM events WHERE n > 0",
            "SET BACKGROUND_DDL = true",
            "CREATE INDEX nonzero_by_kind ON nonzero (kind)",
            "WAIT",
            "SHOW INDEXES",
            "SELECT id, n FROM nonzero WHERE kind = 'k7' AND n = 2 AND id = 7"), "-A", "-t");

        assertThat(created.exitCode()).as(created.stderr()).isZero();
        assertThat(created.stdout()).endsWith(String.join("\n", "WAIT", "nonzero_by_kind", "7|2", ""));
        assertThat(psql.run("SELECT id FROM nonzero WHERE kind = 'k7'", "-A", "-t").stdout().lines()).hasSize(200);

        psql.session(List.of("UPDATE events SET kind = 'moved' WHERE id = 7", "FLUSH"));
        assertThat(psql.value("SELECT id FROM nonzero WHERE kind = 'moved'")).isEqualTo("7");
        assertThat(psql.run("SELECT id FROM nonzero WHERE kind = 'k7'", "-A", "-t").stdout().lines()).hasSize(199);
        assertThat(psql.run("DROP MATERIALIZED VIEW nonzero").stderr()).contains("nonzero_by_kind");
    }
}
