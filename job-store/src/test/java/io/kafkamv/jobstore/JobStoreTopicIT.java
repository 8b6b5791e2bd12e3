package io.kafkamv.jobstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kafkamv.embedded.junit.EmbeddedKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class JobStoreTopicIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.singleNode();

    @Test
    void createsACompactedTopicOfTwoPartitionsOnceAndKeepsIt() throws Exception {
        JobStoreTopic topic = new JobStoreTopic("_kafka_mv_jobs_a", (short) 1, 1);
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            topic.ensureExists(admin);
            topic.ensureExists(admin);

            assertThat(admin.describeTopics(List.of(topic.name())).allTopicNames().get()
                .get(topic.name()).partitions()).hasSize(2);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic.name());
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
            assertThat(config.get("unclean.leader.election.enable").value()).isEqualTo("false");
        }
    }

    @Test
    void aStoreOfAnEarlierVersionGetsItsSecondPartitionAndKeepsItsRecords() throws Exception {
        String name = "_kafka_mv_jobs_c";
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                .all().get();
        }
        // What an earlier version wrote: the catalog entry of a table, on the only partition there was.
        CatalogEntry table = new CatalogEntry("t", ObjectKind.TABLE, ObjectStatus.CREATED, "CREATE TABLE t (v INT)", 0,
            JsonNodeFactory.instance.objectNode(), Instant.EPOCH);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KAFKA.cluster().clientProperties(),
                 new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(name, 0, "object/t", JobStore.mapper().writeValueAsBytes(table))).get();
        }
        JobStoreTopic topic = new JobStoreTopic(name, (short) 1, 1);
        try (JobStore after = JobStore.open(KAFKA.cluster().clientProperties(), topic, Duration.ofSeconds(30));
             Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            assertThat(admin.describeTopics(List.of(name)).allTopicNames().get().get(name).partitions()).hasSize(2);
            assertThat(after.object("t")).isPresent();
        }
    }

    @Test
    void refusesAnExistingTopicThatIsNotCompacted() throws Exception {
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            admin.createTopics(List.of(new NewTopic("_kafka_mv_jobs_b", 1, (short) 1)
                .configs(Map.of("cleanup.policy", "delete")))).all().get();

            JobStoreTopic topic = new JobStoreTopic("_kafka_mv_jobs_b", (short) 1, 1);
            assertThatThrownBy(() -> topic.ensureExists(admin))
                .isInstanceOf(JobStoreException.class)
                .hasMessageContaining("must be compacted");
        }
    }
}
