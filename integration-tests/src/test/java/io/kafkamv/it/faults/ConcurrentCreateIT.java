package io.kafkamv.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import io.kafkamv.it.support.ShownJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances receive the same CREATE at the same moment: exactly one wins, the other gets a clear
 * error, and one job builds one view that both instances serve.
 */
class ConcurrentCreateIT {

    private static final int ROUNDS = 5;

    @TempDir
    Path workDir;

    @Test
    void theSameCreateOnTwoInstancesAtOnceMakesOneViewAndOneClearError() throws Exception {
        try (ServiceProcess first = ServiceProcess.start(workDir.resolve("first"));
             ServiceProcess second = ServiceProcess.start(workDir.resolve("second"),
                 "--bootstrap-servers=" + first.bootstrapServers())) {
            Psql one = new Psql(first.pgPort());
            Psql other = new Psql(second.pgPort());
            assertThat(one.session(List.of("CREATE TABLE t (v INT)", "INSERT INTO t SELECT * FROM generate_series(1, 20000)",
                "FLUSH")).exitCode()).isZero();

            for (int round = 0; round < ROUNDS; round++) {
                List<String> statements = List.of("SET BACKGROUND_DDL = true",
                    "CREATE MATERIALIZED VIEW v" + round + " AS SELECT v % 7 AS k, count(*) AS n FROM t GROUP BY v % 7");
                Process a = one.start(statements);
                Process b = other.start(statements);
                Psql.Result fromOne = Psql.await(a, "first instance");
                Psql.Result fromOther = Psql.await(b, "second instance");

                assertThat(List.of(fromOne.exitCode(), fromOther.exitCode())).as("round %d: exactly one wins", round)
                    .containsOnlyOnce(0).anyMatch(code -> code != 0);
                Psql.Result loser = fromOne.exitCode() == 0 ? fromOther : fromOne;
                assertThat(loser.stderr()).as("round %d", round).contains("relation \"v" + round + "\" already exists");
            }

            assertThat(ShownJob.list(one)).hasSizeLessThanOrEqualTo(ROUNDS);
            assertThat(one.run("WAIT").exitCode()).isZero();
            for (int round = 0; round < ROUNDS; round++) {
                String query = "SELECT count(*) || ',' || sum(n) FROM v" + round;
                assertThat(one.value(query)).isEqualTo("7,20000");
                assertThat(other.value(query)).isEqualTo("7,20000");
            }
            assertThat(other.run("SHOW MATERIALIZED VIEWS", "-A", "-t").stdout()).isEqualTo("v0\nv1\nv2\nv3\nv4\n");
        }
    }
}
