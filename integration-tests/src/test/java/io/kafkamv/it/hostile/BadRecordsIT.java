package io.kafkamv.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Records a source's writer should not have written: each is dead-lettered with its reason and counted,
 * and the views over the source keep running and stay exact.
 */
class BadRecordsIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void unreadableOversizedKeylessAndWrongTypedRecordsGoAsideAndTheViewGoesOn() throws Exception {
        String kafka = SERVICE.service().bootstrapServers();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
            admin.createTopics(List.of(new NewTopic("accounts", 2, (short) 1))).all().get();
        }
        produce(kafka,
            record("{\"id\": 1}", "{\"id\": 1, \"owner\": \"ann\", \"balance\": 10}"),
            record(null, "{\"owner\": \"nobody\", \"balance\": 5}"),
            record(null, "{\"id\": 2, \"owner\": \"" + "x".repeat(300) + "\", \"balance\": 1}"),
            record(null, null),
            record(null, "{\"id\": 3, \"owner\": \"cy\", \"balance\": \"lots\"}"),
            record(null, "{\"id\": 5, \"owner\": \"eve\", \"balance\": \"more\"}"),
            record(null, "\u0000\u0001 binary junk"),
            record(null, "{\"id\": 4, \"owner\": \"dee\", \"balance\": 40}"));
        Psql psql = SERVICE.psql();

        Psql.Result created = psql.session(List.of(
            "CREATE SOURCE accounts (id INT PRIMARY KEY, owner TEXT, balance INT) "
                + "WITH (connector = 'kafka', topic = 'accounts', format = 'json', max_record_bytes = '200')",
            "CREATE MATERIALIZED VIEW totals AS SELECT count(*) AS n, sum(balance) AS total FROM accounts",
            "SELECT n, total FROM totals"), "-A", "-t");

        assertThat(created.exitCode()).as(created.stderr()).isZero();
        assertThat(created.stdout()).isEqualTo("CREATE SOURCE\nCREATE MATERIALIZED VIEW\n2|50\n");
        List<String> reasons = reasons(kafka);
        assertThat(reasons).hasSize(6).filteredOn(reason -> reason.startsWith("not JSON: ")).hasSize(1);
        assertThat(reasons).filteredOn(reason -> !reason.startsWith("not JSON: ")).containsExactlyInAnyOrder(
            "field \"id\" is missing or null",
            "record of 336 bytes is larger than max_record_bytes (200)",
            "a tombstone without a key",
            "field \"balance\" does not fit type integer: \"lots\"",
            "field \"balance\" does not fit type integer: \"more\"");
        assertThat(psql.run("SHOW SOURCES", "-A", "-t").stdout()).isEqualTo("accounts|accounts|json|6|\n");
        List<String> logged = java.nio.file.Files.readAllLines(SERVICE.service().log()).stream()
            .filter(line -> line.contains("cannot be read (")).toList();
        assertThat(logged).as("one log line per kind of problem, not per record").hasSize(5)
            .filteredOn(line -> line.contains("does not fit type integer")).hasSize(1);

        produce(kafka, record(null, "{\"id\": 1, \"owner\": \"ann\", \"balance\": 100}"));
        await().atMost(Duration.ofSeconds(30)).until(() -> psql.value("SELECT total FROM totals"), "140"::equals);
        assertThat(psql.run("CREATE SOURCE bad (id INT) WITH (connector = 'kafka', topic = 'accounts', "
            + "max_record_bytes = 'big')").stderr()).contains("max_record_bytes must be a positive number of bytes, not 'big'");
    }

    private record Message(String key, String value) {
    }

    private static Message record(String key, String value) {
        return new Message(key, value);
    }

    private static void produce(String kafka, Message... messages) throws Exception {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
            for (Message message : messages) {
                producer.send(new ProducerRecord<>("accounts", 0, message.key(), message.value())).get();
            }
        }
    }

    /** The reasons in the dead-letter topic of the source, one per record set aside (by the one view). */
    private static List<String> reasons(String kafka) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> reasons = new ArrayList<>();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka));
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                 new ByteArrayDeserializer())) {
            String topic = admin.listTopics().names().get().stream().filter(name -> name.contains("accounts-dlq"))
                .findFirst().orElseThrow();
            List<org.apache.kafka.common.TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new org.apache.kafka.common.TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (reasons.size() < 6 && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    reasons.add(new String(record.headers().lastHeader("kmv.error").value(), StandardCharsets.UTF_8));
                }
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return reasons;
    }
}
