package io.kafkamv.service.tables;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * How kafka-mv makes the topics it owns: keyed ones (tables with a key, views, upsert sinks) are
 * compacted, the others keep every record; replication comes from the configuration.
 */
public record NewTopics(Admin admin, short replicationFactor) {

    /** Creates the topic; fails if it exists. */
    public void create(String topic, int partitions, boolean compacted) {
        createTopic(topic, partitions, compacted, false);
    }

    /** Creates the topic unless it exists, whoever made it. */
    public void ensure(String topic, int partitions, boolean compacted) {
        createTopic(topic, partitions, compacted, true);
    }

    private void createTopic(String topic, int partitions, boolean compacted, boolean existingIsFine) {
        NewTopic newTopic = new NewTopic(topic, partitions, replicationFactor).configs(compacted
            ? Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)
            : Map.of(TopicConfig.RETENTION_MS_CONFIG, "-1"));
        try {
            admin.createTopics(List.of(newTopic)).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted while creating topic " + topic, e);
        } catch (ExecutionException e) {
            if (!(existingIsFine && e.getCause() instanceof TopicExistsException)) {
                throw new KafkaException("cannot create topic " + topic + ": " + e.getCause().getMessage(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new KafkaException("cannot create topic " + topic + " within 30 s", e);
        }
    }
}
