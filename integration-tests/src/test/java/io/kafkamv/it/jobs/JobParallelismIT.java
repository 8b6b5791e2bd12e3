package io.kafkamv.it.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PARALLELISM: the stream threads a job runs with on each instance, set at CREATE or by ALTER while it is being created
 * and after, kept across restarts, and seen in the threads Kafka Streams really runs (the instance's
 * {@code kafkamv_view_stream_threads} metric).
 */
class JobParallelismIT {

    @TempDir
    Path workDir;

    @Test
    void aJobRunsWithTheThreadsItIsGivenWhileCreatingAndAfterAlsoAcrossARestart() throws Exception {
        Path dataDir = workDir.resolve("data");
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            Psql.Result filled = psql.session(List.of("CREATE TABLE t(v1 int)",
                "INSERT INTO t SELECT * FROM generate_series(1, 200000)", "FLUSH", "SET BACKGROUND_DDL = true",
                "CREATE MATERIALIZED VIEW m WITH (parallelism = 1, backfill_rate_limit = 20000) AS "
                    + "SELECT v1 % 100 AS k, count(*) AS n FROM t GROUP BY v1 % 100"));
            assertThat(filled.exitCode()).as(filled.stderr()).isZero();
            awaitThreads(service, 1);
            assertThat(psql.value("SELECT parallelism FROM kafka_mv.jobs WHERE name = 'm'")).isEqualTo("1");

            assertThat(psql.run("ALTER MATERIALIZED VIEW m SET PARALLELISM = 4").stdout())
                .isEqualTo("ALTER MATERIALIZED VIEW\n");
            awaitThreads(service, 4);
            service.kill();
        }
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            awaitThreads(service, 4);
            assertThat(psql.value("SELECT parallelism || ' ' || state FROM kafka_mv.jobs WHERE name = 'm'"))
                .isIn("4 backfilling", "4 starting");

            assertThat(psql.run("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = -1").exitCode()).isZero();
            assertThat(psql.run("WAIT MATERIALIZED VIEW m").exitCode()).isZero();
            assertThat(psql.value("SELECT count(*) || ' ' || sum(n) FROM m")).isEqualTo("100 200000");

            // Created: fewer threads, then the default again; the view keeps up meanwhile.
            assertThat(psql.run("ALTER MATERIALIZED VIEW m SET PARALLELISM TO 1").exitCode()).isZero();
            awaitThreads(service, 1);
            assertThat(psql.run("ALTER MATERIALIZED VIEW m SET PARALLELISM = DEFAULT").exitCode()).isZero();
            awaitThreads(service, 2);
            assertThat(psql.value("SELECT parallelism FROM kafka_mv.jobs WHERE name = 'm'")).isEqualTo("2");
            psql.session(List.of("INSERT INTO t VALUES (7)", "FLUSH"));
            assertThat(psql.value("SELECT n FROM m WHERE k = 7")).isEqualTo("2001");

            for (String wrong : List.of("ALTER MATERIALIZED VIEW m SET PARALLELISM = 0",
                "ALTER MATERIALIZED VIEW m SET PARALLELISM = 65",
                "CREATE MATERIALIZED VIEW m2 WITH (parallelism = 'many') AS SELECT v1 FROM t")) {
                assertThat(psql.run(wrong, "-v", "VERBOSITY=verbose").stderr()).as(wrong)
                    .contains("ERROR:  22023: invalid value for parameter \"parallelism\"")
                    .contains("(stream threads per instance, from 1 to 64)");
            }
        }
    }

    private static final Pattern THREADS = Pattern.compile("kafkamv_view_stream_threads\\{[^}]*object=\"m\"[^}]*} ([0-9.]+)");

    /** Until the instance runs the job of view m with that many stream threads. */
    private static void awaitThreads(ServiceProcess service, int threads) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
            .untilAsserted(() -> assertThat(threads(service)).isEqualTo(threads));
    }

    private static int threads(ServiceProcess service) throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + service.httpPort() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        Matcher matcher = THREADS.matcher(metrics);
        return matcher.find() ? (int) Double.parseDouble(matcher.group(1)) : -1;
    }
}
