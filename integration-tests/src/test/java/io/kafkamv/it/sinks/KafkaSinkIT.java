package io.kafkamv.it.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Sinks on a real broker: created in the background, read back through a source, kept on drop. */
class KafkaSinkIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void anUpsertSinkFollowsItsQueryAndReadsBackAsASource() throws Exception {
        Psql psql = SERVICE.psql();
        Psql.Result created = psql.session(List.of(
            "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer TEXT, amount DECIMAL)",
            "INSERT INTO orders SELECT g, 'c' || (g % 3), g FROM generate_series(1, 3000) g",
            "FLUSH",
            "SET BACKGROUND_DDL = true",
            "CREATE SINK totals AS SELECT customer, sum(amount) AS total FROM orders GROUP BY customer "
                + "WITH (connector = 'kafka', topic = 'customer-totals', type = 'upsert')",
            "WAIT",
            "SHOW SINKS",
            "CREATE SOURCE totals_back (customer TEXT PRIMARY KEY, total DECIMAL) "
                + "WITH (connector = 'kafka', topic = 'customer-totals', format = 'json')",
            "SELECT customer, total FROM totals_back ORDER BY customer"), "-A", "-t");

        assertThat(created.exitCode()).as(created.stderr()).isZero();
        assertThat(created.stdout()).isEqualTo(String.join("\n", "CREATE_TABLE", "INSERT 0 3000", "FLUSH", "SET",
            "CREATE_SINK", "WAIT", "totals", "CREATE_SOURCE", "c0|1501500", "c1|1499500", "c2|1500500", ""));

        psql.session(List.of("DELETE FROM orders WHERE customer = 'c1'", "UPDATE orders SET amount = 0 WHERE id = 3"));
        await().atMost(Duration.ofSeconds(30)).until(
            () -> psql.value("SELECT total FROM totals_back WHERE customer = 'c0'"), "1501497"::equals);
        await().atMost(Duration.ofSeconds(30)).until(
            () -> psql.value("SELECT count(*) FROM totals_back WHERE customer = 'c1'"), "0"::equals);

        assertThat(psql.run("DROP SINK totals").stdout()).contains("DROP_SINK");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            SERVICE.service().bootstrapServers()))) {
            assertThat(admin.listTopics().names().get()).as("a sink's topic belongs to its readers")
                .contains("customer-totals");
        }
    }

    @Test
    void sinkOptionsAreCheckedBeforeAnythingRuns() throws Exception {
        Psql psql = SERVICE.psql();
        psql.run("CREATE TABLE events (kind TEXT)");

        assertThat(psql.run("CREATE SINK s AS SELECT kind FROM events WITH (topic = 'out')").stderr())
            .contains("the sink's rows have no key among their columns")
            .contains("HINT:  name the columns that identify a row with primary_key");
        assertThat(psql.run("CREATE SINK s AS SELECT kind, count(*) AS n FROM events GROUP BY kind "
            + "WITH (topic = 'out', type = 'append-only')").stderr())
            .contains("an append-only sink needs a query whose rows are never updated or deleted");
        assertThat(psql.run("SHOW SINKS", "-A", "-t").stdout().lines()).doesNotContain("s");
    }
}
