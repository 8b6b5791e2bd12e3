package io.kafkamv.it.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.kafkamv.it.support.KafkaAdmin;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import io.kafkamv.it.support.ShownJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Objects built on a view still being created: their jobs wait for it (state waiting), across restarts, start once it
 * is created, and are cancelled, saying why, when it will not be.
 */
class ViewsOverCreatingViewsIT {

    private static final String HELD_BASE = "CREATE MATERIALIZED VIEW base WITH (backfill_rate_limit = 0) AS "
        + "SELECT v1 % 10 AS k, count(*) AS n, sum(v1) AS s FROM t GROUP BY v1 % 10";

    @TempDir
    Path workDir;

    @Test
    void aViewAndAnIndexOverAViewBeingCreatedWaitForItAcrossARestartThenTakeAllItHolds() throws Exception {
        Path dataDir = workDir.resolve("data");
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 100_000);
            // total is held once it starts, to see the targets it took: what base's topic holds once base is created.
            Psql.Result created = psql.session(List.of("SET BACKGROUND_DDL = true", HELD_BASE,
                "CREATE MATERIALIZED VIEW total WITH (backfill_rate_limit = 0) AS SELECT sum(n) AS n, sum(s) AS s FROM base",
                "CREATE MATERIALIZED VIEW top AS SELECT k FROM total CROSS JOIN base WHERE base.n * 10 = total.n",
                "CREATE INDEX base_by_k ON base (k)"));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertWaiting(psql);
            service.kill();
        }
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            assertWaiting(psql);
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                .until(() -> psql.value("SELECT count(*) FROM kafka_mv.jobs WHERE state = 'waiting'").equals("3"));

            assertThat(psql.run("ALTER MATERIALIZED VIEW base SET BACKFILL_RATE_LIMIT = DEFAULT").exitCode()).isZero();
            assertThat(psql.run("WAIT MATERIALIZED VIEW base").exitCode()).isZero();
            await().atMost(Duration.ofSeconds(30)).until(() -> psql.value(
                "SELECT state FROM kafka_mv.jobs WHERE name = 'total'").equals("backfilling"));
            String baseTopic = psql.value("SELECT DISTINCT topic FROM kafka_mv.job_partitions p JOIN kafka_mv.jobs j "
                + "ON j.id = p.job_id WHERE j.name = 'total'");
            assertThat(psql.value("SELECT records_total FROM kafka_mv.jobs WHERE name = 'total'"))
                .as("total's targets are the ends of base's topic once base is created")
                .isEqualTo(String.valueOf(KafkaAdmin.records(service.bootstrapServers(), baseTopic)));
            assertThat(psql.value("SELECT bool_and(p.end_offset = p.target_offset) || ' ' || sum(p.committed_offset) "
                + "FROM kafka_mv.job_partitions p JOIN kafka_mv.jobs j ON j.id = p.job_id WHERE j.name = 'total'"))
                .as("held at rate 0, it has read nothing, and base's topic ends where its targets are").isEqualTo("true 0");

            assertThat(psql.run("ALTER MATERIALIZED VIEW total SET BACKFILL_RATE_LIMIT = DEFAULT").exitCode()).isZero();
            assertThat(psql.run("WAIT MATERIALIZED VIEW top").exitCode()).isZero();
            assertThat(psql.run("WAIT").exitCode()).isZero();

            assertThat(psql.value("SELECT n || ',' || s FROM total")).isEqualTo("100000,5000050000");
            assertThat(psql.value("SELECT count(*) FROM top")).isEqualTo("10");
            assertThat(psql.value("SELECT n FROM base WHERE k = 3")).isEqualTo("10000");
            assertThat(psql.value("SELECT count(*) FROM kafka_mv.jobs WHERE state <> 'created'")).isEqualTo("0");
            // The views made later keep up with new rows as any other.
            psql.session(List.of("INSERT INTO t VALUES (100001)", "FLUSH"));
            assertThat(psql.value("SELECT n FROM total")).isEqualTo("100001");
        }
    }

    /** The three jobs over base wait for it, said in SHOW JOBS and kafka_mv.jobs; base itself is held at rate 0. */
    private static void assertWaiting(Psql psql) throws Exception {
        List<ShownJob> jobs = ShownJob.list(psql);
        assertThat(jobs).hasSize(4);
        String shown = psql.run("SHOW JOBS", "-A", "-t").stdout();
        assertThat(shown.lines().filter(line -> line.endsWith("|0.00% (waiting for base)")).count()).isEqualTo(2);
        assertThat(shown).contains("|0.00% (waiting for base, total)\n");
        assertThat(psql.run("SELECT name, state, waiting_for, records_total FROM kafka_mv.jobs ORDER BY id", "-A", "-t")
            .stdout()).isEqualTo("""
                base|backfilling||100000
                total|waiting|base|0
                top|waiting|base, total|0
                base_by_k|waiting|base|0
                """);
        assertThat(psql.value("SELECT count(*) FROM kafka_mv.job_partitions WHERE job_id <> " + jobs.get(0).id()))
            .as("a waiting job has no offsets yet").isEqualTo("0");
    }

    @Test
    void whatWaitsForACancelledOrDroppedViewIsCancelledAndSaysWhy() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            psql.fillTable("t", 1_000);
            assertThat(psql.session(List.of("SET BACKGROUND_DDL = true", HELD_BASE)).exitCode()).isZero();
            long base = ShownJob.only(psql).id();
            // In the foreground, its client waits for it: CANCEL of what it waits for ends the wait with the reason.
            Process foreground = psql.start(List.of("CREATE MATERIALIZED VIEW total AS SELECT sum(n) AS n FROM base"));
            await().atMost(Duration.ofSeconds(30)).until(() -> ShownJob.list(psql).size() == 2);

            assertThat(psql.run("CANCEL JOB " + base).exitCode()).isZero();

            Psql.Result ended = Psql.await(foreground, "the CREATE waiting for base");
            assertThat(ended.exitCode()).isNotZero();
            assertThat(ended.stderr()).contains("was cancelled: materialized view \"base\", which it reads, was cancelled "
                + "(cancelled by user)");
            await().atMost(Duration.ofSeconds(30)).until(() -> ShownJob.list(psql).isEmpty());

            // DROP of what others wait for names them; with CASCADE they go too, and every name is free again.
            assertThat(psql.session(List.of("SET BACKGROUND_DDL = true", HELD_BASE,
                "CREATE MATERIALIZED VIEW total AS SELECT sum(n) AS n FROM base")).exitCode()).isZero();
            Psql.Result refused = psql.run("DROP MATERIALIZED VIEW base");
            assertThat(refused.stderr()).contains("cannot drop materialized view base because other objects depend on it")
                .contains("total");
            assertThat(psql.run("DROP MATERIALIZED VIEW base CASCADE").exitCode()).isZero();
            await().atMost(Duration.ofSeconds(30)).until(() -> ShownJob.list(psql).isEmpty());
            Psql.Result again = psql.session(List.of(HELD_BASE.replace(" WITH (backfill_rate_limit = 0)", ""),
                "CREATE MATERIALIZED VIEW total AS SELECT sum(n) AS n FROM base", "SELECT n FROM total"));
            assertThat(again.stdout()).as(again.stderr()).contains("1000");
        }
    }
}
