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
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.it.support.Psql;
import io.kafkamv.service.jobs.JobParallelism;
import io.kafkamv.it.support.ServiceProcess;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How much a job takes: PARALLELISM, the stream threads it runs with on each instance, set at CREATE or by ALTER while
 * it is being created and after, seen in the threads Kafka Streams really runs (the instance's
 * {@code kafkamv_view_stream_threads} metric); and SOURCE_RATE_LIMIT, the rate every job reads a source at. Both are
 * kept across restarts.
 */
class JobResourcesIT {

    @TempDir
    Path workDir;

    @Test
    void aJobRunsWithTheThreadsItIsGivenWhileCreatingAndAfterAlsoAcrossARestart() throws Exception {
        Path dataDir = workDir.resolve("data");
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            Psql.Result filled = psql.session(List.of("CREATE TABLE t(v1 int)",
                "INSERT INTO t SELECT * FROM generate_series(1, 200000)", "FLUSH", "SET BACKGROUND_DDL = true",
                "CREATE MATERIALIZED VIEW m WITH (parallelism = 1, backfill_rate_limit = 5000) AS "
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
            int byDefault = JobParallelism.byDefault(0);
            awaitThreads(service, "m", byDefault);
            assertThat(psql.value("SELECT parallelism FROM kafka_mv.jobs WHERE name = 'm'"))
                .isEqualTo(String.valueOf(byDefault));
            psql.session(List.of("INSERT INTO t VALUES (7)", "FLUSH"));
            assertThat(psql.value("SELECT n FROM m WHERE k = 7")).isEqualTo("2001");

            for (String wrong : List.of("ALTER MATERIALIZED VIEW m SET PARALLELISM = 0",
                "ALTER MATERIALIZED VIEW m SET PARALLELISM = 65",
                "CREATE MATERIALIZED VIEW m2 WITH (parallelism = 'many') AS SELECT v1 FROM t")) {
                assertThat(psql.run(wrong, "-v", "VERBOSITY=verbose").stderr()).as(wrong)
                    .contains("ERROR:  22023: invalid value for parameter \"parallelism\"")
                    .contains("(stream threads per instance, from 1 to 64)");
            }

            // Once the instance runs as many jobs as it has cores, a job that sets no parallelism gets one thread: a
            // second would wait for a core. The jobs started before keep theirs.
            List<String> busy = new java.util.ArrayList<>();
            for (int i = 1; i < Runtime.getRuntime().availableProcessors(); i++) {
                busy.add("CREATE MATERIALIZED VIEW busy" + i + " AS SELECT count(*) AS n FROM t");
            }
            busy.add("CREATE MATERIALIZED VIEW one_more AS SELECT count(*) AS n FROM t");
            Psql.Result created = psql.session(busy);
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            awaitThreads(service, "one_more", 1);
            assertThat(psql.value("SELECT parallelism FROM kafka_mv.jobs WHERE name = 'one_more'")).isEqualTo("1");
            assertThat(psql.value("SELECT parallelism FROM kafka_mv.jobs WHERE name = 'm'"))
                .isEqualTo(String.valueOf(byDefault));
            assertThat(psql.value("SELECT n FROM one_more")).isEqualTo("200001");
        }
    }

    @Test
    void aSourceRateLimitHoldsEveryJobReadingTheSourceWhileItBackfillsAndAfterAlsoAcrossARestart() throws Exception {
        Path dataDir = workDir.resolve("data");
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            produce(service, 0, 20_000);
            Psql.Result created = psql.session(List.of(
                "CREATE SOURCE clicks (id INT) WITH (connector = 'kafka', topic = 'clicks', format = 'json')",
                "ALTER SOURCE clicks SET SOURCE_RATE_LIMIT = 0", "SET BACKGROUND_DDL = true",
                "CREATE MATERIALIZED VIEW held AS SELECT count(*) AS n FROM clicks", "CREATE TABLE t(v1 int)",
                "INSERT INTO t VALUES (1), (2)", "SET BACKGROUND_DDL = false",
                "CREATE MATERIALIZED VIEW unheld AS SELECT count(*) AS n FROM t"));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(psql.value("SELECT n FROM unheld")).as("a job over another input is not held").isEqualTo("2");
            assertStandsStill(psql, "SELECT records_done FROM kafka_mv.jobs WHERE name = 'held'", "0");
            service.kill();
        }
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.run("SHOW SOURCES", "-A", "-t").stdout()).isEqualTo("clicks|clicks|json|0|0\n");
            assertStandsStill(psql, "SELECT records_done FROM kafka_mv.jobs WHERE name = 'held'", "0");

            assertThat(psql.run("ALTER SOURCE clicks SET SOURCE_RATE_LIMIT TO DEFAULT").stdout()).isEqualTo("ALTER SOURCE\n");
            assertThat(psql.run("WAIT MATERIALIZED VIEW held").exitCode()).isZero();
            assertThat(psql.value("SELECT n FROM held")).isEqualTo("20000");

            // Created: the limit holds its live reads too, and lifting it lets them through.
            assertThat(psql.run("ALTER SOURCE clicks SET SOURCE_RATE_LIMIT = 0").exitCode()).isZero();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> metric(service, "kafkamv_view_held", "held") == 1);
            produce(service, 20_000, 100);
            assertStandsStill(psql, "SELECT n FROM held", "20000");
            assertThat(psql.run("ALTER SOURCE clicks SET SOURCE_RATE_LIMIT = -1").exitCode()).isZero();
            await().atMost(Duration.ofSeconds(30)).until(() -> metric(service, "kafkamv_view_held", "held") == 0);
            assertThat(psql.run("SHOW SOURCES", "-A", "-t").stdout()).isEqualTo("clicks|clicks|json|0|\n");
            await().atMost(Duration.ofSeconds(60)).until(() -> psql.value("SELECT n FROM held").equals("20100"));

            assertThat(psql.run("ALTER SOURCE clicks SET SOURCE_RATE_LIMIT = 'fast'", "-v", "VERBOSITY=verbose")
                .stderr()).contains("ERROR:  22023: invalid value for parameter \"source_rate_limit\"");
            assertThat(psql.run("ALTER SOURCE nowhere SET SOURCE_RATE_LIMIT = 5", "-v", "VERBOSITY=verbose")
                .stderr()).contains("ERROR:  42P01");
        }
    }

    /** The query's answer is {@code value} and stays so for three seconds. */
    private static void assertStandsStill(Psql psql, String query, String value) {
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15))
            .until(() -> psql.value(query).equals(value));
    }

    private static void produce(ServiceProcess service, int from, int count) {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, service.bootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
            new StringSerializer())) {
            for (int id = from; id < from + count; id++) {
                producer.send(new ProducerRecord<>("clicks", "{\"id\": " + id + "}"));
            }
            producer.flush();
        }
    }

    /** Until the instance runs the job of view m with that many stream threads. */
    private static void awaitThreads(ServiceProcess service, int threads) {
        awaitThreads(service, "m", threads);
    }

    private static void awaitThreads(ServiceProcess service, String view, int threads) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
            .untilAsserted(() -> assertThat(metric(service, "kafkamv_view_stream_threads", view)).isEqualTo(threads));
    }

    /** The instance's gauge of that name for that object, or -1 while it has none. */
    private static int metric(ServiceProcess service, String name, String object) throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + service.httpPort() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        Matcher matcher = Pattern.compile(name + "\\{[^}]*object=\"" + object + "\"[^}]*} ([0-9.]+)").matcher(metrics);
        return matcher.find() ? (int) Double.parseDouble(matcher.group(1)) : -1;
    }
}
