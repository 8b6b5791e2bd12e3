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

/** A topic of CSV lines read as a source; a line that does not fit is set aside, the view goes on. */
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
        assertThat(created.stdout()).isEqualTo("CREATE_SOURCE\nCREATE_MATERIALIZED_VIEW\ns1|2|21.5\ns2|1|\n");
        produce(kafka, "s2|25.0|on");
        await().atMost(Duration.ofSeconds(30)).until(
            () -> psql.value("SELECT hottest FROM per_sensor WHERE sensor = 's2'"), "25.0"::equals);
    }

    private static void produce(String kafka, String... lines) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka, ProducerConfig.ACKS_CONFIG, "all"),
            new StringSerializer(), new StringSerializer())) {
            for (String line : lines) {
                producer.send(new ProducerRecord<>("readings", line)).get();
            }
        }
    }
}
