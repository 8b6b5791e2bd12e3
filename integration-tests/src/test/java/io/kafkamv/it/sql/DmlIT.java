package io.kafkamv.it.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

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
            "CREATE TABLE", "INSERT 0 3", "CREATE MATERIALIZED VIEW", "UPDATE 2", "DELETE 1", "UPDATE 1", "FLUSH",
            "x|120|2", "2|70", "9|50", ""));
    }

    /**
     * A dropped view is closed here on the runner's own thread, after the drop reaches it through the job store; its
     * table dropped right after must keep its topic until then: an exactly-once task whose input topic is deleted
     * under it does not finish closing (it logged the missing partition for 30 s in the bench).
     */
    @Test
    void aTableDroppedRightAfterItsViewKeepsItsTopicUntilTheViewHasClosedHere() throws Exception {
        Psql psql = SERVICE.psql();
        psql.session(List.of("CREATE TABLE dropped_soon (id INT PRIMARY KEY, v INT)",
            "INSERT INTO dropped_soon SELECT x, x FROM generate_series(1, 1000) AS t(x)",
            "CREATE MATERIALIZED VIEW dropped_first AS SELECT v, count(*) AS n FROM dropped_soon GROUP BY v"));
        long stoppedBefore = stoppedJobs();

        Psql.Result result = psql.session(List.of("DROP MATERIALIZED VIEW dropped_first", "DROP TABLE dropped_soon"),
            "-A", "-t");

        assertThat(result.stdout()).as(result.stderr()).isEqualTo("DROP MATERIALIZED VIEW\nDROP TABLE\n");
        assertThat(stoppedJobs()).as("the view's job was stopped here before DROP TABLE returned").isEqualTo(stoppedBefore + 1);
    }

    private static long stoppedJobs() throws java.io.IOException {
        return Files.readAllLines(SERVICE.service().log()).stream().filter(line -> line.contains("stopped on this instance"))
            .count();
    }

    @Test
    void postgresCastsWorkInWritesAndQueries() throws Exception {
        Psql.Result result = SERVICE.psql().session(List.of(
            "CREATE TABLE casted (id INT PRIMARY KEY, t TEXT)",
            "INSERT INTO casted VALUES ('7'::int4, 42::text), (CAST('8' AS int8), CAST(4.5 AS text))",
            "SELECT id::text || ':' || t, t::float8 * 2, CAST(id AS float8) / 2 FROM casted ORDER BY id"), "-A", "-t");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo(String.join("\n", "CREATE TABLE", "INSERT 0 2", "7:42|84|3.5", "8:4.5|9|4", ""));
    }

    @Test
    void badWritesGetClearErrorsAndWriteNothing() throws Exception {
        Psql psql = SERVICE.psql();
        psql.session(List.of("CREATE TABLE n (id INT PRIMARY KEY, v INT NOT NULL)", "CREATE TABLE log (line TEXT)"));

        assertThat(psql.run("INSERT INTO n VALUES (1, NULL)").stderr())
            .contains("null value in column \"v\" of relation \"n\" violates not-null constraint");
        assertThat(psql.run("INSERT INTO n VALUES (1, 2, 3)").stderr()).contains("INSERT has more expressions than target columns");
        assertThat(psql.run("INSERT INTO n VALUES (99999999999, 1)").stderr()).contains("integer out of range");
        assertThat(psql.run("DELETE FROM log").stderr()).contains("needs a table with a primary key");
        assertThat(psql.run("INSERT INTO nope VALUES (1)").stderr()).contains("relation \"nope\" does not exist");
        assertThat(psql.value("SELECT count(*) FROM n")).isEqualTo("0");
    }

    /** psql's COPY ... FROM STDIN with its data inline, as a dump or a load script has it, and COPY TO STDOUT. */
    @Test
    void copyLoadsRowsAndSaysWhichLineIsBad(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("load.sql");
        Files.writeString(script, String.join("\n",
            "CREATE TABLE loaded (id INT PRIMARY KEY, name TEXT, price NUMERIC(10,2), ok BOOLEAN);",
            "COPY loaded FROM STDIN;",
            "1\tann\t1.5\tt",
            "2\t\\N\t\\N\t\\N",
            "\\.",
            "COPY loaded (id, name) FROM STDIN WITH (FORMAT csv, HEADER);",
            "id,name",
            "3,\"quoted, \"\"comma\"\"\"",
            "\\.",
            "COPY (SELECT id, name, price, ok FROM loaded ORDER BY id) TO STDOUT WITH CSV;",
            "COPY loaded FROM STDIN WITH (FORMAT csv);",
            "4,dee,2.5,true",
            "5,eve,lots,false",
            "\\.",
            ""));
        Psql.Result result = SERVICE.psql().session(List.of(), "-A", "-t", "-f", script.toString());

        assertThat(result.stdout()).isEqualTo(String.join("\n", "CREATE TABLE", "COPY 2", "COPY 1",
            "1,ann,1.50,t", "2,,,", "3,\"quoted, \"\"comma\"\"\",,", ""));
        assertThat(result.stderr()).contains("ERROR:  invalid input syntax for type numeric: \"lots\"")
            .contains("CONTEXT:  COPY loaded, line 2, column price: \"lots\"");
    }
}
