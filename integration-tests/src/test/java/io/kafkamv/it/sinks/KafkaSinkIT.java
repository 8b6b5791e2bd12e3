package io.kafkamv.it.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kafkamv.connectors.registry.SchemaRegistryClient;
import io.kafkamv.connectors.registry.SchemaRegistryServerTestDouble;
import io.kafkamv.it.support.Psql;
import org.apache.avro.Schema;
import io.kafkamv.it.support.ServiceExtension;
import io.kafkamv.it.support.ServiceProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sinks on a real broker: created in the background, read back through a source, kept on drop; in
 * JSON and in Avro with a registry; mirroring a view across updates, deletes and a restart.
 */
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
        assertThat(created.stdout()).isEqualTo(String.join("\n", "CREATE TABLE", "INSERT 0 3000", "FLUSH", "SET",
            "CREATE SINK", "WAIT", "totals", "CREATE SOURCE", "c0|1501500", "c1|1499500", "c2|1500500", ""));

        psql.session(List.of("DELETE FROM orders WHERE customer = 'c1'", "UPDATE orders SET amount = 0 WHERE id = 3"));
        await().atMost(Duration.ofSeconds(30)).until(
            () -> psql.value("SELECT total FROM totals_back WHERE customer = 'c0'"), "1501497"::equals);
        await().atMost(Duration.ofSeconds(30)).until(
            () -> psql.value("SELECT count(*) FROM totals_back WHERE customer = 'c1'"), "0"::equals);

        assertThat(psql.run("DROP SINK totals").stdout()).contains("DROP SINK");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            SERVICE.service().bootstrapServers()))) {
            assertThat(admin.listTopics().names().get()).as("a sink's topic belongs to its readers")
                .contains("customer-totals");
        }
    }

    private static final String SALES_PER_REGION = "SELECT region, sum(amount), count(*), max(sold) FROM sales "
        + "GROUP BY region ORDER BY region";

    private static String query(Psql psql, String sql) throws Exception {
        Psql.Result result = psql.run(sql, "-A", "-t");
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return result.stdout();
    }

    @Test
    void anAvroSinkWritesRecordsTheRegistryDescribesAndReadsBackAsAnAvroSource() throws Exception {
        try (SchemaRegistryServerTestDouble registry = SchemaRegistryServerTestDouble.start()) {
            Psql psql = SERVICE.psql();
            String avro = "format = 'avro', schema.registry = '" + registry.url() + "'";
            Psql.Result created = psql.session(List.of(
                "CREATE TABLE sales (id BIGINT PRIMARY KEY, region TEXT, amount DECIMAL, sold DATE)",
                "INSERT INTO sales VALUES (1, 'north', 10.50, DATE '2026-11-27'), (2, 'north', 2.25, NULL), "
                    + "(3, 'south', 7, DATE '2026-11-28'), (4, 'west', 1, NULL)",
                "FLUSH",
                "CREATE SINK per_region AS SELECT region, sum(amount) AS total, count(*) AS n, max(sold) AS last_sale "
                    + "FROM sales GROUP BY region WITH (connector = 'kafka', topic = 'region-totals', " + avro + ")",
                "CREATE SOURCE per_region_back WITH (connector = 'kafka', topic = 'region-totals', " + avro
                    + ", primary_key = 'region')",
                "SELECT region, total, n, last_sale FROM per_region_back ORDER BY region"), "-A", "-t");

            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(created.stdout()).endsWith("CREATE SINK\nCREATE SOURCE\n" + query(psql, SALES_PER_REGION))
                .contains("north|12.75|2|2026-11-27\n");
            // Read as any Avro consumer would: the id in each message names the schema in the registry.
            SchemaRegistryClient client = new SchemaRegistryClient(registry.url(), null);
            Schema value = new Schema.Parser().parse(client.latest("region-totals-value").schema());
            assertThat(value.getFields()).extracting(Schema.Field::name).containsExactly("region", "total", "n", "last_sale");
            assertThat(value.getField("n").schema().getType()).isEqualTo(Schema.Type.LONG);
            assertThat(value.getField("total").schema().toString()).as("a numeric as its text").contains("\"string\"");
            assertThat(value.getField("last_sale").schema().toString()).contains("\"logicalType\":\"date\"");
            assertThat(client.latest("region-totals-key").schema()).contains("\"region\"");

            psql.session(List.of("DELETE FROM sales WHERE region = 'west'", "UPDATE sales SET amount = 5 WHERE id = 2"));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(query(psql,
                "SELECT region, total, n, last_sale FROM per_region_back ORDER BY region"))
                .isEqualTo(query(psql, SALES_PER_REGION)).contains("north|15.50|2|"));
            assertThat(psql.run("CREATE SINK bad AS SELECT region AS \"the region\", count(*) AS n FROM sales GROUP BY region "
                + "WITH (topic = 'x', " + avro + ")").stderr()).contains("cannot be an Avro record");
            assertThat(psql.run("CREATE SINK bad AS SELECT region, count(*) AS n FROM sales GROUP BY region WITH ("
                + "topic = 'x', format = 'avro')").stderr()).contains("an Avro sink needs a Schema Registry");
        }
    }

    @Test
    void aKafkaSinkMirrorsAViewAcrossChangesAndARestart(@TempDir Path workDir) throws Exception {
        Path data = workDir.resolve("data");
        try (ServiceProcess service = ServiceProcess.start(data)) {
            Psql psql = new Psql(service.pgPort());
            Psql.Result created = psql.session(List.of(
                "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer TEXT, amount DECIMAL(10, 2))",
                "INSERT INTO orders SELECT g, 'c' || (g % 20), g FROM generate_series(1, 5000) g",
                "CREATE MATERIALIZED VIEW totals AS SELECT customer, count(*) AS n, sum(amount) AS total "
                    + "FROM orders GROUP BY customer",
                "CREATE SINK totals_out FROM totals WITH (connector = 'kafka', topic = 'totals-out', type = 'upsert')",
                "CREATE SOURCE totals_back (customer TEXT PRIMARY KEY, n BIGINT, total DECIMAL) "
                    + "WITH (connector = 'kafka', topic = 'totals-out', format = 'json')"), "-A", "-t");
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(mirrored(psql)).isEqualTo(view(psql)).hasSize(20));

            psql.session(List.of("UPDATE orders SET customer = 'c1' WHERE customer = 'c2'",
                "DELETE FROM orders WHERE customer = 'c3'", "INSERT INTO orders VALUES (9001, 'new', 1.25)"));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(mirrored(psql)).isEqualTo(view(psql)).hasSize(19));
        }
        try (ServiceProcess restarted = ServiceProcess.start(data)) {
            Psql psql = new Psql(restarted.pgPort());
            psql.session(List.of("DELETE FROM orders WHERE customer = 'new'", "UPDATE orders SET amount = 0 WHERE id = 7"));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(mirrored(psql)).isEqualTo(view(psql)).hasSize(18));
        }
    }

    private static List<String> view(Psql psql) throws Exception {
        return psql.run("SELECT customer || '|' || n || '|' || total FROM totals ORDER BY customer", "-A", "-t")
            .stdout().lines().toList();
    }

    private static List<String> mirrored(Psql psql) throws Exception {
        return psql.run("SELECT customer || '|' || n || '|' || total FROM totals_back ORDER BY customer", "-A", "-t")
            .stdout().lines().toList();
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
