package io.kafkamv.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** psql's backslash commands, answered from kafka-mv's catalog. */
class PsqlMetaCommandsIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    private static Psql psql;

    @BeforeAll
    static void createObjects() throws Exception {
        psql = SERVICE.psql();
        Psql.Result setup = psql.session(List.of(
            "CREATE TABLE orders (id INT PRIMARY KEY, customer TEXT NOT NULL, amount INT)",
            "CREATE TABLE t (v1 int)",
            "CREATE MATERIALIZED VIEW per_customer AS SELECT customer, count(*) AS n FROM orders GROUP BY customer"));
        assertThat(setup.exitCode()).as(setup.stderr()).isZero();
    }

    @Test
    void listsTablesViewsAndDatabases() throws Exception {
        assertThat(meta("\\dt")).isEqualTo("public|orders|table|root\npublic|t|table|root\n");
        assertThat(meta("\\dm")).isEqualTo("public|per_customer|materialized view|root\n");
        assertThat(meta("\\d")).isEqualTo("public|orders|table|root\npublic|per_customer|materialized view|root\n"
            + "public|t|table|root\n");
        assertThat(meta("\\l")).startsWith("dev|root|UTF8|");
    }

    @Test
    void describesTheColumnsOfATableAndAView() throws Exception {
        Psql.Result table = psql.run("\\d orders");
        assertThat(table.exitCode()).as(table.stderr()).isZero();
        assertThat(table.stdout())
            .contains("Table \"public.orders\"")
            .contains(" id       | integer           |           | not null | ")
            .contains(" customer | character varying |           | not null | ")
            .contains(" amount   | integer           |           |          | ")
            .doesNotContain("child tables");

        assertThat(psql.run("\\d per_customer").stdout())
            .contains("Materialized view \"public.per_customer\"")
            .contains(" n        | bigint ");
        assertThat(psql.run("\\d nothing").stderr()).contains("Did not find any relation named \"nothing\"");
    }

    private static String meta(String command) throws Exception {
        Psql.Result result = psql.run(command, "-A", "-t");
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return result.stdout();
    }
}
