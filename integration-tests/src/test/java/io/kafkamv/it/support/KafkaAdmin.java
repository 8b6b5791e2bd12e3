package io.kafkamv.it.support;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/** What is in Kafka: topics (all, or those of a job), their records, and consumer groups. */
public final class KafkaAdmin {

    private KafkaAdmin() {
    }

    public static Set<String> topicsOfJob(String bootstrapServers, long jobId) throws Exception {
        try (Admin admin = Admin.create(properties(bootstrapServers))) {
            return admin.listTopics().names().get().stream()
                .filter(topic -> topic.startsWith("kmv-job-" + jobId + "-") || topic.endsWith("-" + jobId)
                    && topic.startsWith("kmv-view-"))
                .collect(Collectors.toSet());
        }
    }

    public static Set<String> topics(String bootstrapServers) throws Exception {
        try (Admin admin = Admin.create(properties(bootstrapServers))) {
            return admin.listTopics().names().get();
        }
    }

    /** Sets a config of a topic, as an operator would with kafka-configs.sh. */
    public static void setTopicConfig(String bootstrapServers, String topic, String name, String value) throws Exception {
        try (Admin admin = Admin.create(properties(bootstrapServers))) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(name, value),
                AlterConfigOp.OpType.SET)))).all().get();
        }
    }

    /** The records a topic holds (or held: the sum of its partitions' end offsets less their starts). */
    public static long records(String bootstrapServers, String topic) throws Exception {
        try (Admin admin = Admin.create(properties(bootstrapServers))) {
            Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
            Map<TopicPartition, OffsetSpec> earliest = new java.util.HashMap<>();
            admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().forEach(partition -> {
                latest.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest());
                earliest.put(new TopicPartition(topic, partition.partition()), OffsetSpec.earliest());
            });
            long total = 0;
            for (var end : admin.listOffsets(latest).all().get().values()) {
                total += end.offset();
            }
            for (var start : admin.listOffsets(earliest).all().get().values()) {
                total -= start.offset();
            }
            return total;
        }
    }

    public static Set<String> groups(String bootstrapServers) throws Exception {
        try (Admin admin = Admin.create(properties(bootstrapServers))) {
            return admin.listGroups().all().get().stream()
                .map(GroupListing::groupId)
                .collect(Collectors.toSet());
        }
    }

    private static Properties properties(String bootstrapServers) {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return properties;
    }
}
