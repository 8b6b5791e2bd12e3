package io.kafkamv.it.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Topics of CSV lines read as sources: a line that does not fit is set aside and the view goes on;
 * views start reading where the source's startup mode says.
 */
class CsvSourceIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void csvLinesFeedAView() throws Exception {
        String kafka = SERVICE.service().bootstrapServers();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
            admin.createTopics(List.of(new NewTopic("readings", 1, (short) 1))).all().get();
        }
        produce(kafka, "s1|20.5|t", "s2|19.0|f", "s1|21.5|true", "not|a|reading|at all", "s2||t");
        Psql psql = SERVICE.psql();

        Psql.Result created = psql.session(List.of(
            "CREATE SOURCE readings (sensor TEXT, celsius DECIMAL, ok BOOLEAN) "
                + "WITH (connector = 'kafka', topic = 'readings', format = 'csv', csv.delimiter = '|')",
            "CREATE MATERIALIZED VIEW per_sensor AS SELECT sensor, count(*) AS n, max(celsius) AS hottest "
                + "FROM readings WHERE ok GROUP BY sensor",
            "SELECT sensor, n, hottest FROM per_sensor ORDER BY sensor"), "-A", "-t");

        assertThat(created.exitCode()).as(created.stderr()).isZero();
        assertThat(created.stdout()).isEqualTo("CREATE SOURCE\nCREATE MATERIALIZED VIEW\ns1|2|21.5\ns2|1|\n");
        produce(kafka, "s2|25.0|on");
        await().atMost(Duration.ofSeconds(30)).until(
            () -> psql.value("SELECT hottest FROM per_sensor WHERE sensor = 's2'"), "25.0"::equals);
    }

    @Test
    void viewsOfALatestOrTimestampSourceSkipWhatCameBefore() throws Exception {
        String kafka = SERVICE.service().bootstrapServers();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
            admin.createTopics(List.of(new NewTopic("ticks", 2, (short) 1))).all().get();
        }
        long old = 1_000_000L;
        long recent = System.currentTimeMillis();
        produceAt(kafka, "ticks", old, "a", "b");
        produceAt(kafka, "ticks", recent, "c");
        Psql psql = SERVICE.psql();
        Psql.Result created = psql.session(List.of(
            "CREATE SOURCE ticks_new (name TEXT) WITH (connector = 'kafka', topic = 'ticks', format = 'csv', "
                + "scan.startup.mode = 'latest')",
            "CREATE SOURCE ticks_since (name TEXT) WITH (connector = 'kafka', topic = 'ticks', format = 'csv', "
                + "scan.startup.mode = 'timestamp', scan.startup.timestamp.millis = '" + (old + 1) + "')",
            "CREATE MATERIALIZED VIEW new_ticks AS SELECT count(*) AS n FROM ticks_new",
            "CREATE MATERIALIZED VIEW recent_ticks AS SELECT name FROM ticks_since",
            "SELECT name FROM recent_ticks"), "-A", "-t");
        assertThat(created.exitCode()).as(created.stderr()).isZero();
        assertThat(created.stdout()).endsWith("CREATE MATERIALIZED VIEW\nc\n");

        produceAt(kafka, "ticks", System.currentTimeMillis(), "d");
        await().atMost(Duration.ofSeconds(30)).until(() -> psql.value("SELECT n FROM new_ticks"), "1"::equals);
        assertThat(psql.run("CREATE SOURCE bad (name TEXT) WITH (connector = 'kafka', topic = 'ticks', "
            + "scan.startup.mode = 'timestamp')").stderr()).contains("needs scan.startup.timestamp.millis");
    }

    private static void produce(String kafka, String... lines) throws Exception {
        produceAt(kafka, "readings", System.currentTimeMillis(), lines);
    }

    private static void produceAt(String kafka, String topic, long timestamp, String... lines) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka, ProducerConfig.ACKS_CONFIG, "all"),
            new StringSerializer(), new StringSerializer())) {
            for (String line : lines) {
                producer.send(new ProducerRecord<>(topic, null, timestamp, null, line)).get();
            }
        }
    }
}
