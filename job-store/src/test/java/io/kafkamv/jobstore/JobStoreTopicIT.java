package io.kafkamv.jobstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import io.kafkamv.embedded.junit.EmbeddedKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class JobStoreTopicIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.singleNode();

    @Test
    void createsACompactedSinglePartitionTopicOnceAndKeepsIt() throws Exception {
        JobStoreTopic topic = new JobStoreTopic("_kafka_mv_jobs_a", (short) 1, 1);
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            topic.ensureExists(admin);
            topic.ensureExists(admin);

            assertThat(admin.describeTopics(List.of(topic.name())).allTopicNames().get()
                .get(topic.name()).partitions()).hasSize(1);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic.name());
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
            assertThat(config.get("unclean.leader.election.enable").value()).isEqualTo("false");
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
