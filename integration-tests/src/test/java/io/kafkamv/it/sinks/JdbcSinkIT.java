package io.kafkamv.it.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.connectors.jdbc.TestPostgres;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JDBC sink keeps a table of the real PostgreSQL that {@code .ci/run} starts equal to a view,
 * through inserts, updates, deletes and a restart of the service.
 */
class JdbcSinkIT {

    private static final String URL = TestPostgres.URL;
    private static final String USER = TestPostgres.USER;
    private static final String PASSWORD = TestPostgres.PASSWORD;

    @TempDir
    Path workDir;

    @Test
    void aPostgresTableMirrorsAViewAcrossChangesAndARestart() throws Exception {
        execute("DROP TABLE IF EXISTS kmv_totals", "CREATE TABLE kmv_totals (customer TEXT PRIMARY KEY, n BIGINT, total NUMERIC)");
        // The password is named, not given: each instance reads it from the file when it connects.
        Path secrets = workDir.resolve("postgres.properties");
        Files.writeString(secrets, "password=" + PASSWORD + "\n");
        String sink = "CREATE SINK totals_pg FROM totals WITH (connector = 'jdbc', url = '" + URL + "', "
            + "table = 'kmv_totals', user = '" + USER + "', password = '${file:" + secrets + ":password}')";
        Path data = workDir.resolve("data");
        try (ServiceProcess service = ServiceProcess.start(data)) {
            Psql psql = new Psql(service.pgPort());
            Psql.Result created = psql.session(List.of(
                "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer TEXT, amount DECIMAL(10, 2))",
                "INSERT INTO orders SELECT g, 'c' || (g % 20), g FROM generate_series(1, 5000) g",
                "CREATE MATERIALIZED VIEW totals AS SELECT customer, count(*) AS n, sum(amount) AS total "
                    + "FROM orders GROUP BY customer",
                "SET BACKGROUND_DDL = true",
                sink,
                "SHOW JOBS",
                "WAIT"), "-A", "-t");
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(created.stderr()).as("a named secret is not kept in the catalog").doesNotContain("kept in the catalog");
            assertThat(created.stdout()).as("the password is not shown").contains("password = '***'")
                .doesNotContain("password = '" + PASSWORD + "'");
            assertThat(table()).isEqualTo(view(psql)).hasSize(20);

            psql.session(List.of("UPDATE orders SET customer = 'c1' WHERE customer = 'c2'",
                "DELETE FROM orders WHERE customer = 'c3'", "INSERT INTO orders VALUES (9001, 'new', 1.25)", "FLUSH"));
            assertThat(table()).isEqualTo(view(psql)).hasSize(19);
        }
        try (ServiceProcess restarted = ServiceProcess.start(data)) {
            Psql psql = new Psql(restarted.pgPort());
            psql.session(List.of("DELETE FROM orders WHERE customer = 'new'", "UPDATE orders SET amount = 0 WHERE id = 7"));
            // The deadline is for exactness, not speed: after SIGKILL took the embedded broker down too, the sink's
            // group offsets stay unreadable until the killed producers' transactions are aborted, which took over a
            // minute once on a loaded CI machine (Kafka Streams then retries its committed-offset read after 60 s).
            await().atMost(Duration.ofMinutes(3)).untilAsserted(() -> assertThat(table()).isEqualTo(view(psql)).hasSize(18));
            assertThat(psql.run("CREATE SINK nowhere FROM totals WITH (connector = 'jdbc', url = '" + URL + "', "
                + "table = 'no_such_table', user = '" + USER + "', password = '" + PASSWORD + "')").stderr())
                .contains("NOTICE:  option password is kept in the catalog as written")
                .contains("table \"no_such_table\" does not exist").contains("HINT:  create the table first");
            assertThat(psql.run("CREATE SINK unset FROM totals WITH (connector = 'jdbc', url = '" + URL + "', "
                + "table = 'kmv_totals', user = '" + USER + "', password = '${env:KAFKA_MV_IT_NO_SUCH_VARIABLE}')").stderr())
                .contains("the secret ${env:KAFKA_MV_IT_NO_SUCH_VARIABLE} of option password cannot be read");
        }
    }

    private static List<String> view(Psql psql) throws Exception {
        return psql.run("SELECT customer || '|' || n || '|' || total FROM totals ORDER BY customer", "-A", "-t")
            .stdout().lines().toList();
    }

    private static List<String> table() throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = TestPostgres.connect();
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(
                 "SELECT customer || '|' || n || '|' || total FROM kmv_totals ORDER BY customer COLLATE \"C\"")) {
            while (result.next()) {
                rows.add(result.getString(1));
            }
        }
        return rows;
    }

    private static void execute(String... statements) throws SQLException {
        TestPostgres.execute(statements);
    }
}
