package io.kafkamv.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.kafkamv.embedded.EmbeddedKafkaCluster;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import io.kafkamv.it.support.ShownJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing lost: a background job that two instances run together finishes with an exact view while
 * the instances are killed with SIGKILL again and again, and rows keep arriving through the survivor.
 */
class RepeatedKillsIT {

    private static final long ROWS = 1_000_000;
    private static final int KILLS = 5;
    private static final int ROWS_PER_ROUND = 1_000;

    @TempDir
    Path workDir;

    @Test
    void aBackfillSurvivesFiveKillsOfItsInstancesWhileInsertsContinueAndTheViewIsExact() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().dataDir(workDir.resolve("kafka")).build().start()) {
            String external = "--bootstrap-servers=" + kafka.bootstrapServers();
            ServiceProcess[] instances = {start(0, external), start(1, external)};
            try {
                Psql first = new Psql(instances[0].pgPort());
                Psql.Result filled = first.session(List.of("CREATE TABLE t(v1 bigint)",
                    "INSERT INTO t SELECT * FROM generate_series(1, " + ROWS + ")", "FLUSH"));
                assertThat(filled.exitCode()).as(filled.stderr()).isZero();
                // Slow enough that every kill lands in the middle of the backfill.
                Psql.Result created = first.session(List.of("SET BACKFILL_RATE_LIMIT = 10000", "SET BACKGROUND_DDL = true",
                    "CREATE MATERIALIZED VIEW m AS SELECT v1 % 100 AS k, count(*) AS n, sum(v1) AS s FROM t GROUP BY v1 % 100"));
                assertThat(created.exitCode()).as(created.stderr()).isZero();

                long inserted = ROWS;
                for (int round = 0; round < KILLS; round++) {
                    int victim = round % 2;
                    Psql survivor = new Psql(instances[1 - victim].pgPort());
                    List<ShownJob> jobs = ShownJob.list(survivor);
                    assertThat(jobs).as("the job is still creating the view before kill %d", round + 1).hasSize(1);
                    double before = jobs.get(0).percent();
                    await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                        .until(() -> ShownJob.list(survivor).stream().allMatch(job -> job.percent() > before));
                    instances[victim].kill();

                    Psql.Result more = survivor.session(List.of("INSERT INTO t SELECT * FROM generate_series("
                        + (inserted + 1) + ", " + (inserted + ROWS_PER_ROUND) + ")", "FLUSH"));
                    assertThat(more.exitCode()).as(more.stderr()).isZero();
                    inserted += ROWS_PER_ROUND;
                    instances[victim] = start(victim, external);
                }

                Psql any = new Psql(instances[0].pgPort());
                any.run("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = -1");
                assertThat(any.run("WAIT").exitCode()).isZero();
                long rows = inserted;
                String expected = "100," + rows + "," + rows * (rows + 1) / 2;
                // The rows inserted after CREATE arrive after the backfill, in steady state.
                for (ServiceProcess instance : instances) {
                    Psql psql = new Psql(instance.pgPort());
                    await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500))
                        .until(() -> psql.value("SELECT count(*) || ',' || sum(n) || ',' || sum(s) FROM m"), expected::equals);
                }
                assertThat(ShownJob.list(any)).isEmpty();
            } finally {
                for (ServiceProcess instance : instances) {
                    instance.close();
                }
            }
        }
    }

    private ServiceProcess start(int instance, String external) throws java.io.IOException {
        return ServiceProcess.start(workDir.resolve("instance-" + instance), external);
    }
}
