package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.kafkamv.embedded.junit.EmbeddedKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Transactions open on a job's partitions, on a real broker: seen, told apart from hanging ones, and aborted. */
class HangingTransactionsIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.singleNode();

    @Test
    void theApplicationsOpenTransactionsAreSeenWithTheirCoordinatorsStateAndAnAbortLetsReadersPastThem()
        throws Exception {
        TopicPartition changelog = new TopicPartition("kmv-job-7-rows-changelog", 0);
        String ownId = "kmv-job-7-" + UUID.randomUUID() + "-1";
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties());
             KafkaProducer<String, String> own = producer(ownId);
             KafkaProducer<String, String> otherGeneration = producer("kmv-job-7-g1-" + UUID.randomUUID() + "-1")) {
            admin.createTopics(List.of(new NewTopic(changelog.topic(), 1, (short) 1))).all().get();
            // A topic just made may be unknown to its leader for a moment.
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .untilAsserted(() -> assertThat(HangingTransactions.on(admin, List.of(changelog), "kmv-job-7")).isEmpty());

            otherGeneration.initTransactions();
            otherGeneration.beginTransaction();
            otherGeneration.send(new ProducerRecord<>(changelog.topic(), 0, "k", "other")).get();
            own.initTransactions();
            own.beginTransaction();
            own.send(new ProducerRecord<>(changelog.topic(), 0, "k", "v")).get();

            List<HangingTransactions.Open> open = HangingTransactions.on(admin, List.of(changelog), "kmv-job-7");
            assertThat(open).as("another application's (kmv-job-7-g1) is not the application's").singleElement()
                .satisfies(transaction -> {
                    assertThat(transaction.partition()).isEqualTo(changelog);
                    assertThat(transaction.firstOffset()).isEqualTo(1);
                    assertThat(transaction.coordinatorEndsIt()).as("its coordinator is in it").isTrue();
                    assertThat(transaction.coordinatorState()).startsWith(ownId + " Ongoing");
                });
            assertThat(HangingTransactions.hanging(open, open)).as("one its coordinator ends is not hanging").isEmpty();
            assertThat(HangingTransactions.abortLeftBy(admin, "kmv-job-7", List.of(changelog.topic()))).as("nor aborted as left").isEmpty();

            otherGeneration.abortTransaction();
            // Its coordinator writes the markers after it answers.
            await().atMost(Duration.ofSeconds(30)).until(() -> stableEnd(admin, changelog) == 1L);
            HangingTransactions.abort(admin, open);

            assertThat(stableEnd(admin, changelog)).as("read-committed readers go past it").isEqualTo(4L);
            assertThat(HangingTransactions.on(admin, List.of(changelog), "kmv-job-7")).isEmpty();
        }
    }

    private static KafkaProducer<String, String> producer(String transactionalId) {
        Properties properties = KAFKA.cluster().clientProperties();
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        return new KafkaProducer<>(properties);
    }

    private static long stableEnd(Admin admin, TopicPartition partition) throws Exception {
        return admin.listOffsets(Map.of(partition, OffsetSpec.latest()),
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
            .partitionResult(partition).get(30, TimeUnit.SECONDS).offset();
    }
}
