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
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kafkamv.embedded.EmbeddedKafkaCluster;
import io.kafkamv.it.support.KafkaAdmin;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import io.kafkamv.it.support.ShownJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Steering jobs: backfill rate limits, Ctrl-C on a foreground create, a foreground create whose instance goes, and an
 * instance dying under a job.
 */
class JobControlIT {

    @TempDir
    Path workDir;

    @Test
    void rateLimitZeroPausesTheBackfillAndTheLimitSurvivesARestart() throws Exception {
        Path dataDir = workDir.resolve("data");
        long id;
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 200_000);
            Psql.Result created = psql.session(List.of("SET BACKFILL_RATE_LIMIT = 0", "SET BACKGROUND_DDL = true",
                "CREATE MATERIALIZED VIEW m AS SELECT v1 FROM t"));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            id = ShownJob.only(psql).id();

            await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(10))
                .until(() -> ShownJob.only(psql).percent() == 0.0);
            assertThat(job(service, id).get("backfillRateLimit").asLong()).isZero();

            assertThat(psql.run("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = 20000").stdout())
                .isEqualTo("ALTER MATERIALIZED VIEW\n");
            await().atMost(Duration.ofSeconds(60)).until(() -> ShownJob.only(psql).percent() > 0);
            service.kill();
        }
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            assertThat(job(service, id).get("backfillRateLimit").asLong()).isEqualTo(20000);

            psql.run("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = -1");
            assertThat(psql.run("WAIT").exitCode()).isZero();
            assertThat(psql.value("SELECT count(*) FROM m")).isEqualTo("200000");
            assertThat(psql.run("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = 5").stderr())
                .contains("is already created");
        }
    }

    /** PAUSE keeps a backfill's progress and its place in SHOW JOBS, across a restart; RESUME goes on at its old rate. */
    @Test
    void aPausedJobStaysPausedAcrossARestartAndResumes() throws Exception {
        Path dataDir = workDir.resolve("data");
        long id;
        double pausedAt;
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 200_000);
            Psql.Result created = psql.session(List.of("SET BACKFILL_RATE_LIMIT = 20000", "SET BACKGROUND_DDL = true",
                "CREATE MATERIALIZED VIEW m AS SELECT count(*) AS c FROM t"));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            id = ShownJob.only(psql).id();
            await().atMost(Duration.ofSeconds(60)).until(() -> ShownJob.only(psql).percent() > 0);

            assertThat(psql.run("PAUSE JOB " + id).stdout()).isEqualTo("PAUSE\n");
            assertThat(ShownJob.only(psql).statement()).contains("CREATE MATERIALIZED VIEW m");
            assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout()).contains("% (paused)");
            assertThat(job(service, id).get("paused").asBoolean()).isTrue();
            // The progress written before the pause took hold may still arrive; then it stands still.
            AtomicReference<Double> seen = new AtomicReference<>(-1.0);
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    double now = ShownJob.only(psql).percent();
                    return seen.getAndSet(now) == now;
                });
            pausedAt = ShownJob.only(psql).percent();
            assertThat(pausedAt).isLessThan(100);
            service.kill();
        }
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout()).contains(id + "|").contains("% (paused)");
            await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(10))
                .until(() -> ShownJob.only(psql).percent() == pausedAt);
            assertThat(psql.run("PAUSE JOB 99").stderr()).contains("job 99 does not exist");

            JsonNode resumed = post(service, "/v1/jobs/" + id + "/resume");
            assertThat(resumed.get("paused").asBoolean()).isFalse();
            assertThat(resumed.get("backfillRateLimit").asLong()).as("the rate it had").isEqualTo(20000);
            await().atMost(Duration.ofSeconds(60)).until(() -> ShownJob.list(psql).isEmpty()
                || ShownJob.only(psql).percent() > pausedAt);
            assertThat(psql.run("WAIT MATERIALIZED VIEW m").exitCode()).isZero();
            assertThat(psql.value("SELECT c FROM m")).isEqualTo("200000");
            assertThat(psql.run("RESUME JOB " + id).stderr()).contains("job " + id + " is not being created (created)");
        }
    }

    /**
     * ALTER SYSTEM SET max_concurrent_creating_jobs: the jobs beyond it wait, queued in creation order, without
     * reading their sources, also across a restart; they start as the ones before them are created.
     */
    @Test
    void jobsBeyondTheClustersLimitWaitQueuedAcrossARestart() throws Exception {
        Path dataDir = workDir.resolve("data");
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 1_000);
            Psql.Result created = psql.session(List.of("ALTER SYSTEM SET max_concurrent_creating_jobs = 1",
                "SET BACKGROUND_DDL = true",
                "CREATE MATERIALIZED VIEW first_one WITH (backfill_rate_limit = 0) AS SELECT count(*) AS c FROM t",
                "CREATE MATERIALIZED VIEW second_one AS SELECT sum(v1) AS s FROM t",
                "CREATE MATERIALIZED VIEW third_one AS SELECT max(v1) AS m FROM t"));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(psql.value("SHOW max_concurrent_creating_jobs")).isEqualTo("1");
            assertQueuedBehindTheFirst(psql);
            service.kill();
        }
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            assertQueuedBehindTheFirst(psql);

            assertThat(psql.run("ALTER MATERIALIZED VIEW first_one SET BACKFILL_RATE_LIMIT = -1").exitCode()).isZero();
            assertThat(psql.run("WAIT").exitCode()).isZero();
            assertThat(psql.value("SELECT c || ' ' || s || ' ' || m FROM first_one, second_one, third_one"))
                .isEqualTo("1000 500500 1000");
            assertThat(psql.run("ALTER SYSTEM SET max_concurrent_creating_jobs = -1").stderr())
                .contains("requires a non-negative integer value");
            assertThat(psql.run("ALTER SYSTEM SET max_concurrent_creating_jobs = 0").exitCode()).isZero();
            assertThat(psql.value("SHOW max_concurrent_creating_jobs")).as("no limit").isEqualTo("0");
            assertThat(psql.run("ALTER SYSTEM RESET max_concurrent_creating_jobs").stdout()).isEqualTo("ALTER SYSTEM\n");
            assertThat(psql.value("SHOW max_concurrent_creating_jobs")).isEqualTo("8");
        }
    }

    /** The first job holds the one slot (at rate 0); the two after it wait and have read nothing of their source. */
    private static void assertQueuedBehindTheFirst(Psql psql) throws Exception {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(psql.run("SELECT name, state FROM "
            + "kafka_mv.jobs ORDER BY id", "-A", "-t").stdout()).isEqualTo("""
            first_one|backfilling
            second_one|queued
            third_one|queued
            """));
        assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout().lines().filter(line -> line.endsWith("% (queued)")))
            .hasSize(2);
        assertThat(psql.value("SELECT count(*) FROM kafka_mv.job_partitions p JOIN kafka_mv.jobs j ON j.id = p.job_id "
            + "WHERE j.state = 'queued' AND p.committed_offset > p.start_offset")).isEqualTo("0");
    }

    @Test
    void ctrlCOnAForegroundCreateCancelsTheJob() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 300_000);
            Process foreground = psql.start(List.of("SET BACKFILL_RATE_LIMIT = 0",
                "CREATE MATERIALIZED VIEW m AS SELECT v1 FROM t"));
            await().atMost(Duration.ofSeconds(60)).until(() -> ShownJob.list(psql).size() == 1);
            long id = ShownJob.only(psql).id();

            // What Ctrl-C does: psql sends a CancelRequest on a new connection.
            new ProcessBuilder("kill", "-INT", String.valueOf(foreground.pid())).start().waitFor();

            Psql.Result result = Psql.await(foreground, "the cancelled CREATE");
            assertThat(result.exitCode()).isNotZero();
            assertThat(result.stderr()).contains("canceling statement due to user request");
            assertThat(ShownJob.list(psql)).isEmpty();
            await().atMost(Duration.ofSeconds(60))
                .until(() -> KafkaAdmin.topicsOfJob(service.bootstrapServers(), id).isEmpty());
            assertThat(psql.run("SHOW MATERIALIZED VIEWS", "-A", "-t").stdout()).isEmpty();
        }
    }

    @Test
    void aWaitThatEndsEarlyLeavesTheBackgroundJobItWaitedFor() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 1_000);
            Psql.Result waited = psql.session(List.of("SET BACKFILL_RATE_LIMIT = 0", "SET BACKGROUND_DDL = true",
                "CREATE MATERIALIZED VIEW m AS SELECT v1 FROM t", "SET statement_timeout = '1s'", "WAIT MATERIALIZED VIEW m"));
            assertThat(waited.stderr()).contains("canceling statement due to statement timeout");

            // Only a foreground CREATE's own wait cancels its job; this one was accepted in the background.
            assertThat(ShownJob.list(psql)).hasSize(1);
            assertThat(psql.run("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = -1").exitCode()).isZero();
            assertThat(psql.run("WAIT").exitCode()).isZero();
            assertThat(psql.value("SELECT count(*) FROM m")).isEqualTo("1000");
        }
    }

    /** SHOW JOBS LIKE, CANCEL JOB (singular) and WAIT by kind: SINK, INDEX and TABLE as well as MATERIALIZED VIEW. */
    @Test
    void jobsAreShownByNameCancelledOneByOneAndWaitedForByKind() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 1_000);
            // The rate limits come from the session or from the CREATE's WITH, which wins.
            Psql.Result created = psql.session(List.of("SET BACKFILL_RATE_LIMIT = 5000", "SET BACKGROUND_DDL = true",
                "CREATE MATERIALIZED VIEW orders_count WITH (backfill_rate_limit = 0) AS SELECT count(*) AS c FROM t",
                "SET BACKFILL_RATE_LIMIT = 0",
                "CREATE MATERIALIZED VIEW other_sum AS SELECT sum(v1) AS s FROM t",
                "SET BACKFILL_RATE_LIMIT = -1",
                "CREATE SINK orders_out AS SELECT v1 FROM t WITH (topic = 'orders-out', type = 'append-only', "
                    + "backfill_rate_limit = 0)",
                "CREATE INDEX t_by_v1 ON t (v1) WITH (backfill_rate_limit = 0)"));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(ShownJob.list(psql)).hasSize(4);
            assertThat(psql.run("CREATE MATERIALIZED VIEW nope WITH (rate = 1) AS SELECT 1 AS one").stderr())
                .contains("unrecognized parameter \"rate\"");

            // kafka_mv.jobs and kafka_mv.job_partitions: the same jobs as tables a query can read and join.
            assertThat(psql.run("SELECT name, kind, create_type, state, progress, records_done, records_total, "
                + "backfill_rate_limit FROM kafka_mv.jobs ORDER BY id", "-A", "-t").stdout()).isEqualTo("""
                orders_count|materialized view|background|backfilling|0|0|1000|0
                other_sum|materialized view|background|backfilling|0|0|1000|0
                orders_out|sink|background|backfilling|0|0|1000|0
                t_by_v1|index|background|backfilling|0|0|1000|0
                """);
            assertThat(psql.value("SELECT sum(p.target_offset - p.start_offset) || ' ' || min(p.phase) || ' ' "
                + "|| bool_and(p.committed_offset = p.start_offset) FROM kafka_mv.job_partitions p "
                + "JOIN kafka_mv.jobs j ON j.id = p.job_id WHERE j.name = 'orders_count'")).isEqualTo("1000 backfill true");

            List<String> shown = psql.run("SHOW JOBS LIKE 'orders%'", "-A", "-t").stdout().lines().toList();
            assertThat(shown).hasSize(2).allMatch(line -> line.contains(" orders_"));
            assertThat(psql.run("SHOW JOBS LIKE 'ORDERS%'", "-A", "-t").stdout()).as("LIKE is case-sensitive").isEmpty();

            long otherSum = ShownJob.list(psql).stream().filter(job -> job.statement().contains("other_sum"))
                .findFirst().orElseThrow().id();
            assertThat(psql.run("CANCEL JOB " + otherSum).stdout()).contains(String.valueOf(otherSum));
            assertThat(ShownJob.list(psql)).hasSize(3).noneMatch(job -> job.id() == otherSum);

            // Each WAIT by kind times out while its object's backfill is paused, and leaves the job running.
            for (String wait : List.of("WAIT SINK orders_out", "WAIT INDEX t_by_v1", "WAIT MATERIALIZED VIEW orders_count")) {
                Psql.Result waited = psql.session(List.of("SET statement_timeout = '1s'", wait));
                assertThat(waited.stderr()).as(wait).contains("canceling statement due to statement timeout");
            }
            assertThat(ShownJob.list(psql)).hasSize(3);
            assertThat(psql.run("WAIT TABLE t").stdout()).as("a table is created by its statement").contains("WAIT");
            assertThat(psql.run("WAIT SINK orders_count").stderr())
                .contains("\"orders_count\" is not a sink: it is a materialized view");
            assertThat(psql.run("WAIT INDEX nowhere").stderr()).contains("index \"nowhere\" does not exist");

            assertThat(psql.run("ALTER MATERIALIZED VIEW orders_count SET BACKFILL_RATE_LIMIT = -1").exitCode()).isZero();
            assertThat(psql.run("WAIT MATERIALIZED VIEW orders_count").exitCode()).isZero();
            assertThat(psql.value("SELECT c FROM orders_count")).isEqualTo("1000");
            assertThat(psql.value("SELECT state || ' ' || progress || ' ' || records_done FROM kafka_mv.jobs "
                + "WHERE name = 'orders_count'")).isEqualTo("created 100 1000");
            assertThat(psql.value("SELECT DISTINCT phase FROM kafka_mv.job_partitions p JOIN kafka_mv.jobs j "
                + "ON j.id = p.job_id WHERE j.name = 'orders_count'")).isEqualTo("live");

            // A sink's and an index's rate limit are altered as a view's; DEFAULT is the session's (-1 here).
            assertThat(psql.session(List.of("ALTER SINK orders_out SET BACKFILL_RATE_LIMIT TO DEFAULT",
                "WAIT SINK orders_out")).stdout())
                .contains("ALTER SINK").contains("WAIT");
            assertThat(psql.run("ALTER INDEX t_by_v1 SET BACKFILL_RATE_LIMIT = -1").stdout()).isEqualTo("ALTER INDEX\n");
            assertThat(psql.run("WAIT INDEX t_by_v1").exitCode()).isZero();
            assertThat(ShownJob.list(psql)).isEmpty();
            assertThat(psql.run("ALTER SINK orders_count SET BACKFILL_RATE_LIMIT = 1").stderr())
                .contains("\"orders_count\" is not a sink: it is a materialized view");
        }
    }

    @Test
    void aForegroundCreateWhoseClientIsGoneIsCancelled() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 300_000);
            Process foreground = psql.start(List.of("SET BACKFILL_RATE_LIMIT = 20000",
                "CREATE MATERIALIZED VIEW m AS SELECT v1 FROM t"));
            await().atMost(Duration.ofSeconds(60)).until(() -> ShownJob.list(psql).stream().anyMatch(job -> job.percent() > 0));
            long id = ShownJob.only(psql).id();

            // A client that dies (or a network that drops it) says nothing: its progress notices find it gone.
            foreground.destroyForcibly().waitFor();

            await().atMost(Duration.ofSeconds(30)).until(() -> ShownJob.list(psql).isEmpty());
            await().atMost(Duration.ofSeconds(60))
                .until(() -> KafkaAdmin.topicsOfJob(service.bootstrapServers(), id).isEmpty());
            assertThat(psql.run("SHOW MATERIALIZED VIEWS", "-A", "-t").stdout()).isEmpty();
        }
    }

    @Test
    void aForegroundCreateIsCancelledWhenItsClientsInstanceStopsOrDiesForGood() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().dataDir(workDir.resolve("kafka")).build().start()) {
            String external = "--bootstrap-servers=" + kafka.bootstrapServers();
            try (ServiceProcess staying = ServiceProcess.start(workDir.resolve("staying"), external)) {
                Psql psql = new Psql(staying.pgPort());
                psql.fillTable("t", 100_000);
                for (boolean stopped : List.of(true, false)) {
                    try (ServiceProcess leaving = ServiceProcess.start(workDir.resolve(stopped ? "stopped" : "killed"), external)) {
                        Process foreground = new Psql(leaving.pgPort()).start(List.of("SET BACKFILL_RATE_LIMIT = 0",
                            "CREATE MATERIALIZED VIEW m AS SELECT v1 FROM t"));
                        await().atMost(Duration.ofSeconds(60)).until(() -> ShownJob.list(psql).size() == 1);
                        long id = ShownJob.only(psql).id();
                        if (stopped) {
                            // Scaled down: it says so as it stops, and the job goes at once.
                            assertThat(leaving.stop(Duration.ofSeconds(60))).as("stopped by SIGTERM").isEqualTo(143);
                            await().atMost(Duration.ofSeconds(15)).until(() -> ShownJob.list(psql).isEmpty());
                        } else {
                            // Gone without a word: the job goes once it has not been heard from for 30 s.
                            leaving.kill();
                            await().atMost(Duration.ofSeconds(75)).until(() -> ShownJob.list(psql).isEmpty());
                        }
                        assertThat(Psql.await(foreground, "the CREATE whose instance went").exitCode()).isNotZero();
                        await().atMost(Duration.ofSeconds(60))
                            .until(() -> KafkaAdmin.topicsOfJob(kafka.bootstrapServers(), id).isEmpty());
                        assertThat(psql.run("SHOW MATERIALIZED VIEWS", "-A", "-t").stdout()).isEmpty();
                    }
                }
                assertThat(psql.run("CREATE MATERIALIZED VIEW m AS SELECT v1 FROM t").exitCode())
                    .as("the name is free again").isZero();
                assertThat(psql.value("SELECT count(*) FROM m")).isEqualTo("100000");
            }
        }
    }

    @Test
    void whenOneOfTwoInstancesDiesTheOtherFinishesTheJob() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().dataDir(workDir.resolve("kafka")).build().start()) {
            String external = "--bootstrap-servers=" + kafka.bootstrapServers();
            try (ServiceProcess first = ServiceProcess.start(workDir.resolve("first"), external);
                 ServiceProcess second = ServiceProcess.start(workDir.resolve("second"), external)) {
                Psql psqlFirst = new Psql(first.pgPort());
                Psql psqlSecond = new Psql(second.pgPort());
                psqlFirst.fillTable("t", 1_000_000);
                psqlFirst.session(List.of("SET BACKGROUND_DDL = true",
                    "CREATE MATERIALIZED VIEW m AS SELECT v1 % 100 AS k, count(*) AS n FROM t GROUP BY v1 % 100"));
                long id = ShownJob.only(psqlSecond).id();
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                    .until(() -> ShownJob.list(psqlSecond).stream().anyMatch(job -> job.percent() >= 30));

                first.kill();

                assertThat(psqlSecond.run("WAIT").exitCode()).isZero();
                assertThat(psqlSecond.value("SELECT count(*) || ',' || sum(n) FROM m")).isEqualTo("100,1000000");
                assertThat(ShownJob.list(psqlSecond)).isEmpty();
                assertThat(KafkaAdmin.topicsOfJob(kafka.bootstrapServers(), id)).isNotEmpty();
            }
        }
    }

    @Test
    void aSecondInstanceStartedLaterTakesItsShareOfARunningViewAndBothAnswerWithTheWholeView() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().dataDir(workDir.resolve("kafka")).build().start()) {
            String external = "--bootstrap-servers=" + kafka.bootstrapServers();
            try (ServiceProcess first = ServiceProcess.start(workDir.resolve("first"), external)) {
                Psql psqlFirst = new Psql(first.pgPort());
                psqlFirst.fillTable("t", 50_000);
                assertThat(psqlFirst.run("CREATE MATERIALIZED VIEW m AS SELECT v1 FROM t").exitCode()).isZero();
                long id = get(first, "/v1/views/m").get("jobId").asLong();
                String rows = "/internal/v1/jobs/" + id + "/rows";
                assertThat(get(first, rows).path("rows").size()).isEqualTo(50_000);

                try (ServiceProcess second = ServiceProcess.start(workDir.resolve("second"), external)) {
                    Psql psqlSecond = new Psql(second.pgPort());
                    // The second instance warms up a copy of its share first and takes it over at the next
                    // probing rebalance, a minute later. An instance still restoring answers 503 without
                    // rows: count that as none yet.
                    await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                        int onFirst = get(first, rows).path("rows").size();
                        int onSecond = get(second, rows).path("rows").size();
                        assertThat(onFirst).as("rows held by the first instance").isPositive().isLessThan(50_000);
                        assertThat(onFirst + onSecond).isEqualTo(50_000);
                    });
                    for (Psql psql : List.of(psqlFirst, psqlSecond)) {
                        assertThat(psql.value("SELECT count(*) || ',' || sum(v1) FROM m")).isEqualTo("50000,1250025000");
                    }
                }
            }
        }
    }

    private static JsonNode job(ServiceProcess service, long id) throws Exception {
        return get(service, "/v1/jobs/" + id);
    }

    private static JsonNode get(ServiceProcess service, String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + service.httpPort() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
        return new ObjectMapper().readTree(response.body());
    }

    private static JsonNode post(ServiceProcess service, String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + service.httpPort() + path))
                .POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return new ObjectMapper().readTree(response.body());
    }
}
