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
 * One broker of three stopped and started again, during a backfill and in steady state: the job
 * goes on, and the view is exact throughout. (The brokers run in this JVM, so a broker is stopped,
 * not killed; the service's own crashes are in {@link RepeatedKillsIT}.)
 */
class BrokerFailureIT {

    private static final int ROWS = 300_000;

    @TempDir
    Path workDir;

    @Test
    void aViewKeepsBackfillingAndUpdatingWhileOneOfThreeBrokersIsDownAndAfterItIsBack() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().nodes(3).dataDir(workDir.resolve("kafka"))
                .build().start();
             ServiceProcess service = ServiceProcess.start(workDir.resolve("service"),
                 "--bootstrap-servers=" + kafka.bootstrapServers())) {
            Psql psql = new Psql(service.pgPort());
            Psql.Result filled = psql.session(List.of("CREATE TABLE t(v1 bigint)",
                "INSERT INTO t SELECT * FROM generate_series(1, " + ROWS + ")", "FLUSH"));
            assertThat(filled.exitCode()).as(filled.stderr()).isZero();
            Psql.Result created = psql.session(List.of("SET BACKFILL_RATE_LIMIT = 20000", "SET BACKGROUND_DDL = true",
                "CREATE MATERIALIZED VIEW m AS SELECT v1 % 100 AS k, count(*) AS n, sum(v1) AS s FROM t GROUP BY v1 % 100"));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            await().atMost(Duration.ofMinutes(1)).until(() -> ShownJob.only(psql).percent() > 10);

            int victim = (kafka.activeControllerId() + 1) % 3;
            kafka.stopNode(victim);
            double atStop = ShownJob.only(psql).percent();
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                .until(() -> ShownJob.list(psql).stream().allMatch(job -> job.percent() > atStop + 10));
            kafka.startNode(victim);

            psql.run("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = -1");
            assertThat(psql.run("WAIT").exitCode()).isZero();
            assertThat(view(psql)).isEqualTo(expected(ROWS));

            kafka.stopNode(victim);
            insert(psql, ROWS + 1, ROWS + 1_000);
            await().atMost(Duration.ofMinutes(1)).until(() -> view(psql), expected(ROWS + 1_000)::equals);

            kafka.startNode(victim);
            insert(psql, ROWS + 1_001, ROWS + 2_000);
            await().atMost(Duration.ofMinutes(1)).until(() -> view(psql), expected(ROWS + 2_000)::equals);
        }
    }

    private static void insert(Psql psql, long from, long to) throws Exception {
        Psql.Result inserted = psql.session(List.of("INSERT INTO t SELECT * FROM generate_series(" + from + ", " + to + ")",
            "FLUSH"));
        assertThat(inserted.exitCode()).as(inserted.stderr()).isZero();
    }

    private static String view(Psql psql) throws Exception {
        return psql.value("SELECT count(*) || ',' || sum(n) || ',' || sum(s) FROM m");
    }

    private static String expected(long rows) {
        return "100," + rows + "," + rows * (rows + 1) / 2;
    }
}
