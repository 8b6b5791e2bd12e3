package io.kafkamv.it.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.kafkamv.it.support.KafkaAdmin;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import io.kafkamv.it.support.ShownJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's user experience through psql, against the service running as a child JVM: background
 * CREATE MATERIALIZED VIEW, SHOW JOBS, CANCEL JOBS, WAIT, and recovery after kill -9.
 */
class BackgroundDdlIT {

    private static final int ROWS = 1_000_000;

    @TempDir
    Path workDir;

    @Test
    void seedSessionBackgroundCreateReturnsAtOnceAndShowsRisingProgress() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", ROWS);

            long before = System.nanoTime();
            Psql.Result created = psql.session(List.of(
                "SET BACKGROUND_DDL=true",
                "CREATE MATERIALIZED VIEW m AS SELECT * FROM t",
                "SHOW JOBS"), "-A", "-t");
            double createSeconds = (System.nanoTime() - before) / 1e9;

            assertThat(created.exitCode()).as(created.stderr()).isZero();
            String[] lines = created.stdout().split("\n");
            assertThat(lines[0]).isEqualTo("SET");
            assertThat(lines[1]).isEqualTo("CREATE MATERIALIZED VIEW");
            String[] job = lines[2].split("\\|");
            assertThat(job[1]).isEqualTo("CREATE MATERIALIZED VIEW m AS SELECT * FROM t");
            // The percentage, then "(starting)" until the job's first progress is written.
            assertThat(job[2]).matches("\\d+\\.\\d\\d%( \\(starting\\))?");
            assertThat(Double.parseDouble(job[2].substring(0, job[2].indexOf('%')))).as("progress when CREATE returned")
                .isLessThan(10);
            assertThat(psql.run("SELECT * FROM m").stderr()).contains("is still being created (job " + job[0]);

            List<Double> seen = new ArrayList<>();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
                List<ShownJob> jobs = ShownJob.list(psql);
                jobs.forEach(shown -> seen.add(shown.percent()));
                return jobs.isEmpty();
            });
            assertThat(seen).isSorted();
            assertThat(seen.stream().distinct().count()).as("distinct progress values seen: %s", seen).isGreaterThan(1);
            assertThat(psql.run("SHOW MATERIALIZED VIEWS", "-A", "-t").stdout()).isEqualTo("m\n");
            assertThat(psql.value("SELECT count(*) || ',' || sum(v1) FROM m")).isEqualTo(ROWS + "," + sum(ROWS));
            System.out.printf("background CREATE returned in %.3f s%n", createSeconds);
        }
    }

    @Test
    void cancelledJobIsNeverVisibleLeavesNothingBehindAndFreesItsName() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 300_000);
            psql.session(List.of("SET BACKGROUND_DDL=true", "CREATE MATERIALIZED VIEW m AS SELECT v1 % 7 AS k, "
                + "count(*) AS n FROM t GROUP BY v1 % 7"));
            long id = ShownJob.only(psql).id();
            await().atMost(Duration.ofSeconds(60)).until(() -> !KafkaAdmin.topicsOfJob(service.bootstrapServers(), id).isEmpty());

            Psql.Result cancelled = psql.run("CANCEL JOBS " + id);

            assertThat(cancelled.stdout()).isEqualTo("  Id  \n------\n " + id + "\n(1 row)\n\n");
            assertThat(ShownJob.list(psql)).isEmpty();
            assertThat(psql.run("SHOW MATERIALIZED VIEWS", "-A", "-t").stdout()).isEmpty();
            assertThat(psql.run("SELECT * FROM m").stderr()).contains("relation \"m\" does not exist");
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(KafkaAdmin.topicsOfJob(service.bootstrapServers(), id)).isEmpty();
                assertThat(KafkaAdmin.groups(service.bootstrapServers())).doesNotContain("kmv-job-" + id);
            });

            Psql.Result again = psql.session(List.of("CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n FROM t",
                "SELECT n FROM m"), "-A", "-t");
            assertThat(again.stdout()).isEqualTo("CREATE MATERIALIZED VIEW\n300000\n");
        }
    }

    @Test
    void backgroundJobSurvivesKillNineAndResumesFromItsProgress() throws Exception {
        Path dataDir = workDir.resolve("data");
        double beforeKill;
        long id;
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", ROWS);
            psql.session(List.of("SET BACKGROUND_DDL=true", "CREATE MATERIALIZED VIEW m AS SELECT v1, v1 * 2 AS d FROM t"));
            id = ShownJob.only(psql).id();
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                .until(() -> ShownJob.list(psql).stream().anyMatch(job -> job.percent() >= 30));
            beforeKill = ShownJob.only(psql).percent();

            service.kill();
        }

        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            ShownJob resumed = ShownJob.only(psql);
            assertThat(resumed.id()).isEqualTo(id);
            assertThat(resumed.percent()).isGreaterThanOrEqualTo(beforeKill);

            assertThat(psql.run("WAIT").exitCode()).isZero();
            assertThat(psql.value("SELECT count(*) || ',' || sum(d) FROM m")).isEqualTo(ROWS + "," + 2 * sum(ROWS));
            System.out.printf("killed at %.2f%%, resumed at %.2f%%%n", beforeKill, resumed.percent());
            service.kill();
        }

        // Its local state lost too: the view is restored from its changelog, and WAIT waits until it is whole.
        try (Stream<Path> state = Files.walk(dataDir.resolve("streams"))) {
            for (Path path : state.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            String before = psql.value("SELECT hydrated FROM kafka_mv.jobs WHERE name = 'm'");
            assertThat(psql.run("WAIT MATERIALIZED VIEW m").exitCode()).isZero();
            assertThat(psql.value("SELECT hydrated FROM kafka_mv.jobs WHERE name = 'm'")).isEqualTo("t");
            assertThat(psql.value("SELECT count(*) || ',' || sum(d) FROM m")).isEqualTo(ROWS + "," + 2 * sum(ROWS));
            System.out.printf("hydrated right after the restart: %s%n", before);
        }
    }

    @Test
    void foregroundJobWhoseClientIsGoneIsCleanedUpAfterRestart() throws Exception {
        Path dataDir = workDir.resolve("data");
        long id;
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", ROWS);
            Process foreground = psql.start(List.of("CREATE MATERIALIZED VIEW m AS SELECT * FROM t"));
            await().atMost(Duration.ofSeconds(60)).until(() -> ShownJob.list(psql).size() == 1);
            id = ShownJob.only(psql).id();

            service.kill();
            assertThat(foreground.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(foreground.exitValue()).as("the foreground client got an error").isNotZero();
        }

        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(ShownJob.list(psql)).isEmpty();
                assertThat(KafkaAdmin.topicsOfJob(service.bootstrapServers(), id)).isEmpty();
            });
            assertThat(psql.run("SELECT * FROM m").stderr()).contains("relation \"m\" does not exist");
        }
    }

    @Test
    void tenSessionsCreateViewsInTheBackgroundAtOnce() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 100_000);

            List<Process> sessions = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                sessions.add(psql.start(List.of("SET BACKGROUND_DDL=true",
                    "CREATE MATERIALIZED VIEW v" + i + " AS SELECT count(*) AS n, sum(v1 + " + i + ") AS s FROM t")));
            }
            for (Process session : sessions) {
                Psql.Result result = Psql.await(session, "a background CREATE");
                assertThat(result.exitCode()).as(result.stderr()).isZero();
            }
            assertThat(psql.run("WAIT").exitCode()).isZero();

            for (int i = 0; i < 10; i++) {
                assertThat(psql.value("SELECT n || ',' || s FROM v" + i))
                    .isEqualTo(100_000 + "," + (sum(100_000) + 100_000L * i));
            }
        }
    }

    private static long sum(long n) {
        return n * (n + 1) / 2;
    }
}
