package io.kafkamv.it.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.kafkamv.it.support.KafkaAdmin;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ALTER SYSTEM SET shared_views = on}: created views leave their own Kafka Streams applications for the shared
 * one ({@code kmv}), seen in the cluster's consumer groups, and keep answering what their queries answer over the
 * table, as the table changes, as a member is dropped, as one is given a PARALLELISM (back to its own application),
 * and across a restart; and views over a source written all the time move too, each record counted once.
 */
class SharedViewsIT {

    /** Each view and its query over {@code t}, which the view must answer the same, in this order. */
    private static final Map<String, String> VIEWS = new LinkedHashMap<>();

    static {
        VIEWS.put("by_k", "SELECT k, count(*) AS n, sum(v) AS s FROM t GROUP BY k");
        VIEWS.put("big", "SELECT id, v FROM t WHERE v > 9000");
        VIEWS.put("total", "SELECT count(*) AS n, max(v) AS top FROM t");
        VIEWS.put("by_k_again", "SELECT k, min(v) AS low FROM t GROUP BY k");
    }

    @TempDir
    Path workDir;

    @Test
    void createdViewsMoveIntoTheSharedApplicationAndStayExactAcrossChangesADropAndARestart() throws Exception {
        Path dataDir = workDir.resolve("data");
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.value("SHOW shared_views")).isEqualTo("off");
            Psql.Result created = psql.session(List.of("ALTER SYSTEM SET shared_views = on",
                "CREATE TABLE t(id int PRIMARY KEY, k int, v int)",
                "INSERT INTO t SELECT i, i % 10, i FROM generate_series(1, 10000) AS g(i)", "FLUSH"));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(psql.value("SHOW shared_views")).isEqualTo("on");
            for (Map.Entry<String, String> view : VIEWS.entrySet()) {
                Psql.Result view1 = psql.run("CREATE MATERIALIZED VIEW " + view.getKey() + " AS " + view.getValue());
                assertThat(view1.exitCode()).as(view1.stderr()).isZero();
            }
            awaitShared(service, psql, VIEWS.keySet());
            assertExact(psql, VIEWS.keySet());

            assertThat(psql.session(List.of("INSERT INTO t SELECT i, i % 10, i FROM generate_series(10001, 12000) AS g(i)",
                "UPDATE t SET v = v + 1 WHERE id % 1000 = 0", "DELETE FROM t WHERE id % 777 = 0", "FLUSH")).exitCode())
                .isZero();
            assertExact(psql, VIEWS.keySet());

            String bigJob = psql.value("SELECT id FROM kafka_mv.jobs WHERE name = 'big'");
            assertThat(psql.run("DROP MATERIALIZED VIEW big").exitCode()).isZero();
            Set<String> left = Set.of("by_k", "total", "by_k_again");
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(KafkaAdmin.topicsOfJob(service.bootstrapServers(), Long.parseLong(bigJob))).isEmpty());
            assertThat(psql.session(List.of("INSERT INTO t VALUES (20000, 3, 20000)", "FLUSH")).exitCode()).isZero();
            assertExact(psql, left);

            // What only its own application applies takes a member back there, where it goes on from where it stood.
            String aloneGroup = "kmv-job-" + psql.value("SELECT id FROM kafka_mv.jobs WHERE name = 'by_k_again'");
            assertThat(psql.run("ALTER MATERIALIZED VIEW by_k_again SET PARALLELISM = 1").exitCode()).isZero();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(KafkaAdmin.groups(service.bootstrapServers())).contains(aloneGroup));
            assertThat(psql.session(List.of("INSERT INTO t VALUES (20002, 3, 1)", "FLUSH")).exitCode()).isZero();
            assertExact(psql, left);
            service.kill();
        }
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            awaitShared(service, psql, Set.of("by_k", "total"));
            Set<String> left = Set.of("by_k", "total", "by_k_again");
            assertThat(psql.session(List.of("INSERT INTO t VALUES (20001, 4, 20001)", "FLUSH")).exitCode()).isZero();
            assertExact(psql, left);
        }
    }

    @Test
    void viewsOverASourceWrittenAllTheTimeMoveAheadOfTheSharedApplicationAndCountEveryRecordOnce() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("busy"))) {
            Psql psql = new Psql(service.pgPort());
            Properties properties = new Properties();
            properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, service.bootstrapServers());
            try (Admin admin = Admin.create(properties)) {
                admin.createTopics(List.of(new NewTopic("events", 4, (short) 1))).all().get();
            }
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicLong written = new AtomicLong();
            Thread writer = new Thread(() -> {
                try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
                    new StringSerializer())) {
                    // Ids 0, 1, 2, ...: a few thousand a second without a pause, until told to stop, so that no view's
                    // committed positions ever stand at the ends: the views can only move ahead of the shared one.
                    while (writing.get()) {
                        for (int i = 0; i < 20; i++) {
                            long id = written.getAndIncrement();
                            producer.send(new ProducerRecord<>("events", String.valueOf(id),
                                "{\"id\": " + id + ", \"k\": " + id % 10 + "}"));
                        }
                        producer.flush();
                        Thread.sleep(5);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "events-writer");
            writer.start();
            try {
                Psql.Result created = psql.session(List.of("ALTER SYSTEM SET shared_views = on",
                    "CREATE SOURCE events (id BIGINT, k INT) WITH (connector = 'kafka', topic = 'events', format = 'json')",
                    "CREATE MATERIALIZED VIEW per_k AS SELECT k, count(*) AS n FROM events GROUP BY k",
                    "CREATE MATERIALIZED VIEW ids AS SELECT k, sum(id) AS s FROM events GROUP BY k",
                    "CREATE MATERIALIZED VIEW everything AS SELECT count(*) AS n, sum(id) AS s FROM events"));
                assertThat(created.exitCode()).as(created.stderr()).isZero();
                awaitShared(service, psql, Set.of("per_k", "ids", "everything"));
            } finally {
                writing.set(false);
                writer.join();
            }
            long n = written.get();
            assertThat(psql.run("FLUSH").exitCode()).isZero();
            // Ids 0 to n - 1, each counted once by every view.
            assertThat(psql.value("SELECT sum(n) || ' ' || count(*) FROM per_k")).isEqualTo(n + " 10");
            assertThat(psql.value("SELECT sum(s) FROM ids")).isEqualTo(String.valueOf(n * (n - 1) / 2));
            assertThat(psql.value("SELECT n || ' ' || s FROM everything")).isEqualTo(n + " " + n * (n - 1) / 2);
            // Partials restored into the shared application before it had read a record once failed it at their flush.
            assertThat(java.nio.file.Files.readString(service.log())).doesNotContain("The shared application failed");
        }
    }

    /** Waits until the views' own consumer groups are gone and the shared application's group has their sources. */
    private static void awaitShared(ServiceProcess service, Psql psql, Set<String> views) throws Exception {
        Set<String> ownGroups = new java.util.HashSet<>();
        for (String view : views) {
            ownGroups.add("kmv-job-" + psql.value("SELECT id FROM kafka_mv.jobs WHERE name = '" + view + "'"));
        }
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            Set<String> groups = KafkaAdmin.groups(service.bootstrapServers());
            assertThat(groups).contains("kmv").doesNotContainAnyElementsOf(ownGroups);
        });
    }

    /** Every view answers what its query answers over the table now, as text. */
    private static void assertExact(Psql psql, Set<String> views) throws Exception {
        for (String view : views) {
            String query = VIEWS.get(view);
            // The first column is each view's key.
            String order = " ORDER BY 1";
            String expected = psql.run(query + order).stdout();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(psql.run("SELECT * FROM " + view + order).stdout()).as(view).isEqualTo(expected));
        }
    }
}
