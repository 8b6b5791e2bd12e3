package io.kafkamv.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaClusterIT {

    @Test
    void singleNodeProducesAndConsumes() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().build().start()) {
            createTopic(kafka, "greetings", 2, 1, Map.of());

            List<String> sent = List.of("hello", "kafka", "mv");
            try (KafkaProducer<String, String> producer = producer(kafka)) {
                for (String value : sent) {
                    producer.send(new ProducerRecord<>("greetings", value, value)).get();
                }
            }

            assertThat(readAll(kafka, "greetings", sent.size())).containsExactlyInAnyOrderElementsOf(sent);
        }
    }

    @Test
    void persistentDataDirKeepsTopicsAndRecordsAcrossRestarts(@TempDir Path dataDir) throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().dataDir(dataDir).build().start()) {
            createTopic(kafka, "durable", 1, 1, Map.of());
            try (KafkaProducer<String, String> producer = producer(kafka)) {
                producer.send(new ProducerRecord<>("durable", "k", "before restart")).get();
            }
        }
        assertThat(Files.exists(dataDir.resolve("cluster.id"))).isTrue();

        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().dataDir(dataDir).build().start()) {
            assertThat(readAll(kafka, "durable", 1)).containsExactly("before restart");
        }
    }

    @Test
    void threeNodesLoseNoAcknowledgedRecordWhenOneNodeStops() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().nodes(3).build().start()) {
            createTopic(kafka, "replicated", 3, 3, Map.of("min.insync.replicas", "2"));
            // Stop a partition leader that is not the active controller: in Kafka 4.4's combined mode the
            // controlled shutdown of the active controller's node, with the others running, can hang.
            int controller = kafka.activeControllerId();
            int partition = 0;
            while (leaderOf(kafka, "replicated", partition) == controller) {
                partition++;
            }
            int stoppedPartition = partition;
            int stoppedLeader = leaderOf(kafka, "replicated", stoppedPartition);

            Set<String> acknowledged = new HashSet<>();
            try (KafkaProducer<String, String> producer = producer(kafka)) {
                acknowledged.addAll(sendAndAwaitAcks(producer, "replicated", "before-", 300));

                kafka.stopNode(stoppedLeader);
                assertThat(kafka.isRunning(stoppedLeader)).isFalse();

                acknowledged.addAll(sendAndAwaitAcks(producer, "replicated", "after-", 300));
            }
            await().atMost(Duration.ofSeconds(30))
                .until(() -> leaderOf(kafka, "replicated", stoppedPartition) != stoppedLeader);

            List<String> read = readAll(kafka, "replicated", acknowledged.size());
            assertThat(read).hasSize(600).containsExactlyInAnyOrderElementsOf(acknowledged);
        }
    }

    private static List<String> sendAndAwaitAcks(KafkaProducer<String, String> producer, String topic,
                                                 String prefix, int count) throws Exception {
        List<Future<RecordMetadata>> pending = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String value = prefix + i;
            values.add(value);
            pending.add(producer.send(new ProducerRecord<>(topic, value, value)));
        }
        for (Future<RecordMetadata> ack : pending) {
            ack.get();
        }
        return values;
    }

    private static void createTopic(EmbeddedKafkaCluster kafka, String name, int partitions, int replicas,
                                    Map<String, String> config) throws Exception {
        try (Admin admin = Admin.create(kafka.clientProperties())) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) replicas).configs(config)))
                .all().get();
        }
    }

    private static int leaderOf(EmbeddedKafkaCluster kafka, String topic, int partition)
        throws ExecutionException, InterruptedException {
        try (Admin admin = Admin.create(kafka.clientProperties())) {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return description.partitions().get(partition).leader().id();
        }
    }

    private static KafkaProducer<String, String> producer(EmbeddedKafkaCluster kafka) {
        Properties properties = kafka.clientProperties();
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        return new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
    }

    /** Reads from the beginning of every partition until {@code expected} values arrived. */
    private static List<String> readAll(EmbeddedKafkaCluster kafka, String topic, int expected) {
        Properties properties = kafka.clientProperties();
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                 new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
                return values.size() >= expected;
            });
        }
        return values;
    }
}
