package io.kafkamv.service.tables;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * How kafka-mv makes the topics it owns: keyed ones (tables with a key, views, upsert sinks) are
 * compacted, the others keep every record; replication comes from the configuration. A topic is
 * handed out only once every partition's leader serves it: an idempotent producer whose first request
 * reaches a leader that has not yet opened the partition can lose that request's records
 * (KAFKA-15591, not fixed in Kafka 4.4: a later request is appended first and every retry of the
 * earlier one is then out of sequence until the delivery timeout), which a table's first INSERT met.
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
            try {
                admin.createTopics(List.of(newTopic)).all().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (existingIsFine && e.getCause() instanceof TopicExistsException) {
                    // Someone else's topic, served for a while, and maybe with another number of partitions.
                    return;
                }
                throw e;
            }
            awaitServed(topic, partitions);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted while creating topic " + topic, e);
        } catch (ExecutionException e) {
            throw new KafkaException("cannot create topic " + topic + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaException("cannot create topic " + topic + " within 30 s", e);
        }
    }

    /**
     * Waits until the leader of each partition answers for it: a ListOffsets request is served by the
     * leader's open partition only. The admin client retries while a leader has not opened its partition,
     * but fails at once while the topic is not yet in the metadata it asks: that is retried here.
     */
    private void awaitServed(String topic, int partitions)
        throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetSpec> ends = IntStream.range(0, partitions).boxed()
            .collect(Collectors.toMap(partition -> new TopicPartition(topic, partition), partition -> OffsetSpec.latest()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                admin.listOffsets(ends).all().get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }
}
