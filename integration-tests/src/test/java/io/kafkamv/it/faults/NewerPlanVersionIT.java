package io.kafkamv.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.JobStoreTopic;
import io.kafkamv.jobstore.ObjectStatus;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling upgrade: a newer kafka-mv accepts a job whose plan has a version this instance does not know. This
 * instance leaves that job to the instances that can run it and says so, instead of failing it for the whole
 * cluster; the jobs it can run go on. (The newer instance is played by this test, which writes the job to the job
 * store as a newer kafka-mv would.)
 */
class NewerPlanVersionIT {

    @TempDir
    Path workDir;

    @Test
    void aJobWithANewerPlanIsLeftToNewerInstancesAndNotFailed() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.session(List.of("CREATE TABLE t (v INT)", "INSERT INTO t SELECT * FROM generate_series(1, 100)",
                "CREATE MATERIALIZED VIEW a AS SELECT count(*) AS n FROM t")).exitCode()).isZero();
            Properties client = new Properties();
            client.put("bootstrap.servers", service.bootstrapServers());
            try (JobStore store = JobStore.open(client, new JobStoreTopic("_kafka_mv_jobs", (short) 1, 1),
                Duration.ofSeconds(30))) {
                Job a = store.jobs().stream().filter(job -> job.objectName().equals("a")).findFirst().orElseThrow();
                CatalogEntry aEntry = store.object("a").orElseThrow();
                ObjectNode plan = a.plan().deepCopy();
                int newer = plan.get("version").asInt() + 1;
                plan.put("version", newer);
                plan.put("a_field_only_newer_versions_know", true);
                long id = store.allocateJobId();
                String statement = "CREATE MATERIALIZED VIEW later AS SELECT count(*) AS n FROM t";
                Job later = new Job(id, "later", statement, plan, true, JobStatus.CREATING, null, a.startOffsets(),
                    a.targetOffsets(), Map.of(), 0, null, -1, Instant.now(), Instant.now());
                assertThat(store.acceptJob(later, new CatalogEntry("later", aEntry.kind(), ObjectStatus.CREATING,
                    statement, id, aEntry.definition(), Instant.now()))).isTrue();

                await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout())
                    .contains(id + "|" + statement + "|0.00% (this instance cannot run it (Plan version " + newer
                        + " is newer than this kafka-mv understands"));
                Psql.Result other = psql.session(List.of("INSERT INTO t VALUES (101)",
                    "CREATE MATERIALIZED VIEW b AS SELECT max(v) AS m FROM t", "FLUSH", "SELECT n FROM a", "SELECT m FROM b"),
                    "-A", "-t");
                assertThat(other.exitCode()).as(other.stderr()).isZero();
                assertThat(other.stdout()).as("the jobs this instance can run go on").endsWith("101\n101\n");
                store.catchUp();
                assertThat(store.job(id)).get().extracting(Job::status).as("left to newer instances, not failed")
                    .isEqualTo(JobStatus.CREATING);
                assertThat(service.log()).content().contains("Job " + id + " (later) cannot run on this instance");

                // A newer kafka-mv's record of the job that this one cannot read at all: what it knew is out of date.
                try (KafkaProducer<String, String> producer = new KafkaProducer<>(client, new StringSerializer(),
                         new StringSerializer())) {
                    producer.send(new ProducerRecord<>("_kafka_mv_jobs", 0, "job/" + id,
                        "{\"id\": " + id + ", \"objectName\": \"later\", \"status\": \"PAUSED\"}")).get();
                }
                await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout())
                    .contains(id + "|" + statement + "|0.00% (this instance cannot run it (this instance cannot read the job's "
                        + "latest record"));
                store.put(later);
                await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout())
                    .contains("(Plan version " + newer));
            }
        }
    }
}
