package io.kafkamv.it.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** INSERT, UPDATE and DELETE through psql, and views that follow them. */
class DmlIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void updatesAndDeletesReachTablesAndViews() throws Exception {
        Psql psql = SERVICE.psql();
        Psql.Result result = psql.session(List.of(
            "CREATE TABLE o (id INT PRIMARY KEY, c TEXT, a INT)",
            "INSERT INTO o VALUES (1, 'x', 5), (2, 'x', 7), (3, 'y', 1)",
            "CREATE MATERIALIZED VIEW s AS SELECT c, sum(a) AS total, count(*) AS n FROM o GROUP BY c",
            "UPDATE o SET a = a * 10 WHERE c = 'x'",
            "DELETE FROM o WHERE id = 3",
            "UPDATE o SET id = 9 WHERE id = 1",
            "FLUSH",
            "SELECT c, total, n FROM s",
            "SELECT id, a FROM o ORDER BY id"), "-A", "-t");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo(String.join("\n",
            "CREATE_TABLE", "INSERT 0 3", "CREATE_MATERIALIZED_VIEW", "UPDATE 2", "DELETE 1", "UPDATE 1", "FLUSH",
            "x|120|2", "2|70", "9|50", ""));
    }

    @Test
    void postgresCastsWorkInWritesAndQueries() throws Exception {
        Psql.Result result = SERVICE.psql().session(List.of(
            "CREATE TABLE casted (id INT PRIMARY KEY, t TEXT)",
            "INSERT INTO casted VALUES ('7'::int4, 42::text), (CAST('8' AS int8), CAST(4.5 AS text))",
            "SELECT id::text || ':' || t, t::float8 * 2, CAST(id AS float8) / 2 FROM casted ORDER BY id"), "-A", "-t");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo(String.join("\n", "CREATE_TABLE", "INSERT 0 2", "7:42|84|3.5", "8:4.5|9|4", ""));
    }

    @Test
    void badWritesGetClearErrorsAndWriteNothing() throws Exception {
        Psql psql = SERVICE.psql();
        psql.session(List.of("CREATE TABLE n (id INT PRIMARY KEY, v INT NOT NULL)", "CREATE TABLE log (line TEXT)"));

        assertThat(psql.run("INSERT INTO n VALUES (1, NULL)").stderr())
            .contains("null value in column \"v\" violates not-null constraint");
        assertThat(psql.run("INSERT INTO n VALUES (1, 2, 3)").stderr()).contains("INSERT has 3 expressions but 2 target columns");
        assertThat(psql.run("INSERT INTO n VALUES (99999999999, 1)").stderr()).contains("integer out of range");
        assertThat(psql.run("DELETE FROM log").stderr()).contains("needs a table with a primary key");
        assertThat(psql.run("INSERT INTO nope VALUES (1)").stderr()).contains("relation \"nope\" does not exist");
        assertThat(psql.value("SELECT count(*) FROM n")).isEqualTo("0");
    }
}
