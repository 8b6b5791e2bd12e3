package io.kafkamv.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.kafkamv.embedded.EmbeddedKafkaCluster;
import io.kafkamv.it.support.KafkaAdmin;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import io.kafkamv.it.support.ShownJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cancel at any point of a job, up to its completion, leaves either the whole view or nothing at
 * all; a crash while a cancelled job is being cleaned up leaves nothing once the service is back; and
 * a drop right after a create frees the name for a new view.
 */
class CancelRacesIT {

    private static final int ROWS = 200_000;
    private static final String VIEW = " AS SELECT v1 % 10 AS k, count(*) AS n FROM t GROUP BY v1 % 10";

    @TempDir
    Path workDir;

    @Test
    void aCancelAnywhereUpToCompletionLeavesTheExactViewOrNothing() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", ROWS);
            int cancelled = 0;
            int completed = 0;
            for (int percent : new int[] {0, 20, 40, 60, 80, 95, 100}) {
                String view = "m" + percent;
                create(psql, view, "SET BACKFILL_RATE_LIMIT = 50000");
                Optional<Long> id = jobOf(psql, view);
                if (id.isPresent()) {
                    await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(20)).until(() ->
                        ShownJob.list(psql).stream().noneMatch(job -> job.id() == id.get() && job.percent() < percent));
                }
                boolean cancelAccepted = id.isPresent() && psql.run("CANCEL JOBS " + id.get()).exitCode() == 0;
                if (cancelAccepted) {
                    cancelled++;
                    awaitNothingLeft(service, psql, view, id.get());
                } else {
                    completed++;
                    assertThat(psql.run("WAIT").exitCode()).isZero();
                    assertThat(psql.value("SELECT count(*) || ',' || sum(n) FROM " + view)).isEqualTo("10," + ROWS);
                }
            }
            assertThat(cancelled).as("cancels that won the race").isPositive();
            assertThat(cancelled + completed).isEqualTo(7);
        }
    }

    @Test
    void aCrashWhileACancelledJobIsCleanedUpIsFinishedByTheNextStart() throws Exception {
        Path dataDir = workDir.resolve("data");
        long id;
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", ROWS);
            create(psql, "m", "SET BACKFILL_RATE_LIMIT = 20000");
            id = jobOf(psql, "m").orElseThrow();
            await().atMost(Duration.ofMinutes(1)).until(() -> ShownJob.only(psql).percent() > 0);
            assertThat(psql.run("CANCEL JOBS " + id).exitCode()).isZero();
            // The embedded broker dies with the service: the cleanup stops wherever it was.
            service.kill();
        }
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            awaitNothingLeft(service, new Psql(service.pgPort()), "m", id);
        }
    }

    @Test
    void aDropRightAfterCreateRemovesEverythingAndFreesTheName() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", ROWS);
            for (int attempt = 0; attempt < 3; attempt++) {
                create(psql, "m", "SET BACKFILL_RATE_LIMIT = 50000");
                Optional<Long> id = jobOf(psql, "m");
                Psql.Result dropped = psql.run("DROP MATERIALIZED VIEW m");
                assertThat(dropped.exitCode()).as(dropped.stderr()).isZero();
                if (id.isPresent()) {
                    awaitNothingLeft(service, psql, "m", id.get());
                }
            }
            Psql.Result created = psql.run("CREATE MATERIALIZED VIEW m" + VIEW);
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(psql.value("SELECT count(*) || ',' || sum(n) FROM m")).isEqualTo("10," + ROWS);
        }
    }

    /**
     * Three instances share a cluster; each round creates a view on one, cancels it through another at a different
     * point of its start, and in one round the third instance is killed right after the cancel (and started again
     * later). In the end no job's topics, consumer group or local state is left on any instance (review finding 13).
     */
    @Test
    void cancelsAcrossThreeInstancesLeaveNoTopicGroupOrLocalStateAnywhere() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().nodes(1).dataDir(workDir.resolve("kafka"))
                .build().start()) {
            String bootstrap = "--bootstrap-servers=" + kafka.bootstrapServers();
            List<Path> dataDirs = List.of(workDir.resolve("a"), workDir.resolve("b"), workDir.resolve("c"));
            try (ServiceProcess a = ServiceProcess.start(dataDirs.get(0), bootstrap);
                 ServiceProcess b = ServiceProcess.start(dataDirs.get(1), bootstrap)) {
                Psql onA = new Psql(a.pgPort());
                Psql onB = new Psql(b.pgPort());
                onA.fillTable("t", ROWS);
                ServiceProcess c = ServiceProcess.start(dataDirs.get(2), bootstrap);
                try {
                    Psql onC = new Psql(c.pgPort());
                    for (int round = 0; round < 4; round++) {
                        String view = "r" + round;
                        create(onA, view, "SET BACKFILL_RATE_LIMIT = 50000");
                        Optional<Long> id = jobOf(onA, view);
                        if (id.isPresent() && round == 1) {
                            // Once every instance knows the job: they may all be starting it.
                            await().atMost(Duration.ofSeconds(30)).until(() -> jobOf(onC, view).isPresent());
                        } else if (id.isPresent() && round >= 2) {
                            // Once it has made progress: its topics, group and local state exist.
                            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50)).until(() ->
                                ShownJob.list(onB).stream().anyMatch(job -> job.id() == id.get() && job.percent() > 0)
                                    || jobOf(onB, view).isEmpty());
                        }
                        boolean cancelled = id.isPresent() && onB.run("CANCEL JOBS " + id.get()).exitCode() == 0;
                        if (round == 3) {
                            c.kill();
                        }
                        if (!cancelled) {
                            Psql.Result dropped = onB.run("DROP MATERIALIZED VIEW " + view);
                            assertThat(dropped.exitCode()).as(dropped.stderr()).isZero();
                        }
                    }
                } finally {
                    c.close();
                }
                try (ServiceProcess again = ServiceProcess.start(dataDirs.get(2), bootstrap)) {
                    Psql onC = new Psql(again.pgPort());
                    // The instance that was killed sweeps its local state a minute after it starts.
                    await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                        assertThat(KafkaAdmin.topics(kafka.bootstrapServers())).noneMatch(topic -> topic.startsWith("kmv-job-"));
                        assertThat(KafkaAdmin.groups(kafka.bootstrapServers())).noneMatch(group -> group.startsWith("kmv-job-"));
                        for (Path dataDir : dataDirs) {
                            assertThat(jobStateDirectories(dataDir)).as("local state in %s", dataDir).isEmpty();
                        }
                    });
                    for (Psql psql : List.of(onA, onB, onC)) {
                        assertThat(ShownJob.list(psql)).isEmpty();
                        assertThat(psql.run("SHOW MATERIALIZED VIEWS", "-A", "-t").stdout()).isEmpty();
                    }
                }
            }
        }
    }

    private static List<String> jobStateDirectories(Path dataDir) throws IOException {
        Path streams = dataDir.resolve("streams");
        if (!Files.isDirectory(streams)) {
            return List.of();
        }
        try (Stream<Path> directories = Files.list(streams)) {
            return directories.map(path -> path.getFileName().toString()).filter(name -> name.startsWith("kmv-job-")).toList();
        }
    }

    private static void awaitNothingLeft(ServiceProcess service, Psql psql, String view, long id) {
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            assertThat(ShownJob.list(psql)).extracting(ShownJob::id).doesNotContain(id);
            assertThat(KafkaAdmin.topicsOfJob(service.bootstrapServers(), id)).isEmpty();
            assertThat(KafkaAdmin.groups(service.bootstrapServers())).doesNotContain("kmv-job-" + id);
            assertThat(psql.run("SELECT count(*) FROM " + view).stderr()).contains("does not exist");
        });
    }

    private static void create(Psql psql, String view, String rateLimit) throws Exception {
        Psql.Result created = psql.session(List.of(rateLimit, "SET BACKGROUND_DDL = true",
            "CREATE MATERIALIZED VIEW " + view + VIEW));
        assertThat(created.exitCode()).as(created.stderr()).isZero();
    }

    /** The job creating the view, unless it is already done. */
    private static Optional<Long> jobOf(Psql psql, String view) throws Exception {
        return ShownJob.list(psql).stream()
            .filter(job -> job.statement().contains("VIEW " + view + " "))
            .map(ShownJob::id)
            .findFirst();
    }
}
