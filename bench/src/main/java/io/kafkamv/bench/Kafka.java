package io.kafkamv.bench;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** The few broker questions the harness asks: end offsets, and whether a group has read to them. */
public final class Kafka {

    private Kafka() {
    }

    public static Properties properties(String bootstrapServers) {
        Properties properties = new Properties();
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return properties;
    }

    public static Map<TopicPartition, Long> endOffsets(Admin admin, Collection<String> topics)
        throws InterruptedException, ExecutionException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        admin.describeTopics(topics).allTopicNames().get().forEach((topic, description) ->
            description.partitions().forEach(partition ->
                request.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest())));
        return admin.listOffsets(request).all().get().entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().offset()));
    }

    /**
     * Whether a Kafka Streams application has committed the end of its sources and of its own
     * repartition topics: the criterion kafka-mv uses to make a view visible, applied to the baseline.
     */
    public static boolean caughtUp(Admin admin, String applicationId, Collection<String> sources)
        throws InterruptedException, ExecutionException {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(applicationId)
            .partitionsToOffsetAndMetadata().get();
        List<String> topics = new java.util.ArrayList<>(sources);
        admin.listTopics().names().get().stream()
            .filter(topic -> topic.startsWith(applicationId + "-") && topic.endsWith("-repartition"))
            .forEach(topics::add);
        return endOffsets(admin, topics).entrySet().stream().allMatch(end -> {
            OffsetAndMetadata commit = committed.get(end.getKey());
            return end.getValue() == 0 || (commit != null && commit.offset() >= end.getValue());
        });
    }
}
