package io.kafkamv.service.jobs;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/** Start and end offsets of whole topics, keyed {@code topic:partition} as jobs store them. */
public final class Offsets {

    private Offsets() {
    }

    public static Map<String, Long> end(Admin admin, Collection<String> topics) {
        return list(admin, topics, OffsetSpec.latest());
    }

    public static Map<String, Long> start(Admin admin, Collection<String> topics) {
        return list(admin, topics, OffsetSpec.earliest());
    }

    private static Map<String, Long> list(Admin admin, Collection<String> topics, OffsetSpec spec) {
        try {
            Map<String, TopicDescription> descriptions = admin.describeTopics(topics).allTopicNames()
                .get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            descriptions.values().forEach(description -> description.partitions().forEach(partition ->
                request.put(new TopicPartition(description.name(), partition.partition()), spec)));
            Map<String, Long> offsets = new HashMap<>();
            admin.listOffsets(request).all().get(30, TimeUnit.SECONDS).forEach((partition, info) ->
                offsets.put(BackfillProgress.key(partition), info.offset()));
            return offsets;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading offsets of " + topics, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot read offsets of " + topics + ": " + e.getMessage(), e);
        }
    }

    static List<String> topicsOf(Map<String, Long> offsets) {
        return offsets.keySet().stream().map(key -> BackfillProgress.parse(key).topic()).distinct().toList();
    }
}
