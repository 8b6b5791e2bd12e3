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
 * Everything down at once in the middle of a backfill — both service instances SIGKILLed, then all
 * three brokers stopped — and everything started again: the job the cluster had accepted goes on from
 * its persisted progress and ends with an exact view. (The brokers run in this JVM, so they are
 * stopped, not killed.)
 */
class WholeClusterRestartIT {

    private static final int ROWS = 200_000;

    @TempDir
    Path workDir;

    @Test
    void aBackgroundJobSurvivesTheWholeClusterGoingDownAndComingBack() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().nodes(3).dataDir(workDir.resolve("kafka"))
                .build().start()) {
            String bootstrap = "--bootstrap-servers=" + kafka.bootstrapServers();
            ServiceProcess first = ServiceProcess.start(workDir.resolve("first"), bootstrap);
            ServiceProcess second = ServiceProcess.start(workDir.resolve("second"), bootstrap);
            double atCrash;
            long job;
            try {
                Psql psql = new Psql(first.pgPort());
                Psql.Result filled = psql.session(List.of("CREATE TABLE t(v1 bigint)",
                    "INSERT INTO t SELECT * FROM generate_series(1, " + ROWS + ")", "FLUSH"));
                assertThat(filled.exitCode()).as(filled.stderr()).isZero();
                Psql.Result created = psql.session(List.of("SET BACKFILL_RATE_LIMIT = 10000", "SET BACKGROUND_DDL = true",
                    "CREATE MATERIALIZED VIEW m AS SELECT v1 % 100 AS k, count(*) AS n, sum(v1) AS s FROM t GROUP BY v1 % 100"));
                assertThat(created.exitCode()).as(created.stderr()).isZero();
                job = ShownJob.only(psql).id();
                await().atMost(Duration.ofMinutes(1)).until(() -> ShownJob.only(psql).percent() > 15);
                // Slowed to a crawl (the limit is kept with the job), so that it cannot have caught up by the time the
                // check after the restart looks: two instances at 10,000 rows/s could finish the rest while they start.
                assertThat(psql.run("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = 1").exitCode()).isZero();
                atCrash = ShownJob.only(psql).percent();
            } finally {
                first.kill();
                second.kill();
            }
            kafka.stopAllNodes();
            kafka.startAllNodes();

            try (ServiceProcess firstAgain = ServiceProcess.start(workDir.resolve("first"), bootstrap);
                 ServiceProcess secondAgain = ServiceProcess.start(workDir.resolve("second"), bootstrap)) {
                Psql psql = new Psql(secondAgain.pgPort());
                ShownJob resumed = ShownJob.only(psql);
                assertThat(resumed.id()).isEqualTo(job);
                assertThat(resumed.percent()).as("resumed from its persisted progress, not from zero")
                    .isGreaterThanOrEqualTo(atCrash);
                assertThat(psql.run("SELECT count(*) FROM m").stderr()).as("not visible before it has caught up")
                    .contains("is still being created");

                psql.run("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = -1");
                Psql.Result inserted = psql.session(List.of(
                    "INSERT INTO t SELECT * FROM generate_series(" + (ROWS + 1) + ", " + (ROWS + 1_000) + ")", "FLUSH"));
                assertThat(inserted.exitCode()).as(inserted.stderr()).isZero();
                assertThat(psql.run("WAIT").exitCode()).isZero();

                await().atMost(Duration.ofMinutes(1)).until(() -> view(psql), expected(ROWS + 1_000)::equals);
                assertThat(view(new Psql(firstAgain.pgPort()))).isEqualTo(expected(ROWS + 1_000));
                assertThat(ShownJob.list(psql)).isEmpty();
            }
        }
    }

    private static String view(Psql psql) throws Exception {
        return psql.value("SELECT count(*) || ',' || sum(n) || ',' || sum(s) FROM m");
    }

    private static String expected(long rows) {
        return "100," + rows + "," + rows * (rows + 1) / 2;
    }
}
