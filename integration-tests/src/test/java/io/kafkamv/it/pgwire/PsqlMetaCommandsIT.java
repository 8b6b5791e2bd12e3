package io.kafkamv.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** psql's backslash commands, answered from kafka-mv's catalog, and its session commands (SET, RESET, SHOW). */
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
    void informationSchemaAndPgCatalogAreTablesThatQueriesCanJoin() throws Exception {
        Psql.Result tables = psql.run("SELECT table_name, table_type FROM information_schema.tables ORDER BY table_name", "-A", "-t");
        assertThat(tables.stdout()).as(tables.stderr())
            .isEqualTo("orders|BASE TABLE\nper_customer|MATERIALIZED VIEW\nt|BASE TABLE\n");
        Psql.Result columns = psql.run("SELECT column_name, data_type, is_nullable FROM information_schema.columns "
            + "WHERE table_name = 'orders' ORDER BY ordinal_position", "-A", "-t");
        assertThat(columns.stdout()).as(columns.stderr())
            .isEqualTo("id|integer|NO\ncustomer|character varying|NO\namount|integer|YES\n");
        Psql.Result joined = psql.run("SELECT a.attname, t.typname FROM pg_catalog.pg_class c "
            + "JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid JOIN pg_catalog.pg_type t ON t.oid = a.atttypid "
            + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            + "WHERE c.relname = 'per_customer' AND n.nspname = 'public' ORDER BY a.attnum", "-A", "-t");
        assertThat(joined.stdout()).as(joined.stderr()).isEqualTo("customer|varchar\nn|int8\n");
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

    @Test
    void setTakesPostgresFormsAndAnswersAsPostgresDoes() throws Exception {
        Psql.Result set = psql.session(List.of("SET application_name TO 'notebook'", "SHOW application_name",
            "SET application_name = DEFAULT", "SET SESSION backfill_rate_limit TO 1000", "RESET backfill_rate_limit",
            "SET TIME ZONE 'UTC'", "SHOW timezone", "SET search_path TO public, pg_catalog", "SHOW search_path"));

        // What PostgreSQL 15's psql prints for the same session.
        assertThat(set.stdout()).as(set.stderr()).isEqualTo("""
            SET
             application_name\s
            ------------------
             notebook
            (1 row)

            SET
            SET
            RESET
            SET
             TimeZone\s
            ----------
             UTC
            (1 row)

            SET
                search_path    \s
            --------------------
             public, pg_catalog
            (1 row)

            """);
        assertThat(psql.run("SET application_name TO").stderr()).isEqualTo("""
            ERROR:  syntax error at end of input
            LINE 1: SET application_name TO
                                           ^
            """);
        assertThat(psql.run("SET application_name = NULL").stderr()).startsWith("""
            ERROR:  syntax error at or near "NULL"
            LINE 1: SET application_name = NULL
                                           ^
            """);
    }

    @Test
    void versionIsInPostgresFormAsClientsParseIt() throws Exception {
        // SQLAlchemy runs this on its first connection and reads the major and minor version from it.
        Psql.Result version = psql.run("select pg_catalog.version()", "-A", "-t");
        assertThat(version.stdout()).as(version.stderr()).matches("PostgreSQL 13\\.0\\.0 \\(kafka-mv\\)\n");
        assertThat(psql.value("SELECT version()")).isEqualTo(version.stdout().strip());
    }

    @Test
    void gdescDescribesAQueryWithoutRunningIt(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("gdesc.sql");
        Files.writeString(script, "SELECT 1 AS n, 'x'::text AS \"it's\", 2.5::float8 AS f, now_ts.t FROM "
            + "(SELECT TIMESTAMP '2026-01-01 00:00:00' AS t) now_ts \\gdesc\n");
        Psql.Result described = psql.session(List.of(), "-A", "-f", script.toString());
        assertThat(described.stdout()).as(described.stderr()).isEqualTo(String.join("\n", "Column|Type", "n|integer",
            "it's|character varying", "f|double precision", "t|timestamp without time zone", "(4 rows)", ""));
    }

    @Test
    void sessionFunctionsNameTheSession() throws Exception {
        Psql.Result session = psql.run("SELECT current_user, session_user, user, current_schema(), current_schema, "
            + "current_database(), pg_sleep(0.01)", "-A", "-t");
        assertThat(session.stdout()).as(session.stderr()).isEqualTo("root|root|root|public|public|dev|\n");
        Psql.Result isolation = psql.run("SHOW TRANSACTION ISOLATION LEVEL", "-A");
        assertThat(isolation.stdout()).isEqualTo("transaction_isolation\nread committed\n(1 row)\n");
    }

    @Test
    void aPatternThatIsNoRegularExpressionIsRefusedAsPostgresRefusesIt() throws Exception {
        // What PostgreSQL 15 answers to the same command: the pattern psql makes, ^(foo()$, does not compile.
        Psql.Result unbalanced = psql.run("\\d foo(");

        assertThat(unbalanced.stderr()).isEqualTo("ERROR:  invalid regular expression: parentheses () not balanced\n");
        assertThat(psql.run("\\d orders").exitCode()).isZero();
    }

    private static String meta(String command) throws Exception {
        Psql.Result result = psql.run(command, "-A", "-t");
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return result.stdout();
    }
}
