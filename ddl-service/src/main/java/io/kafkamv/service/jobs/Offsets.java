package io.kafkamv.service.jobs;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.plan.SourceScanStep;
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

    /**
     * Where a job starts reading each of its plan's topics: the beginning, except for sources created
     * with {@code scan.startup.mode = 'latest'} (their end now) or {@code 'timestamp'} (the first
     * record at or after {@code scan.startup.timestamp.millis}, or the end when there is none).
     */
    public static Map<String, Long> start(Admin admin, PhysicalPlan plan) {
        Map<String, Long> start = new HashMap<>(start(admin, plan.sourceTopics()));
        for (PlanStep step : plan.steps()) {
            if (step instanceof SourceScanStep source) {
                String mode = source.formatOptions().getOrDefault(STARTUP_MODE, "earliest");
                if (mode.equals("latest")) {
                    start.putAll(end(admin, List.of(source.topic())));
                } else if (mode.equals("timestamp")) {
                    long millis = Long.parseLong(source.formatOptions().get(STARTUP_TIMESTAMP));
                    Map<String, Long> end = end(admin, List.of(source.topic()));
                    list(admin, List.of(source.topic()), OffsetSpec.forTimestamp(millis)).forEach((partition, offset) ->
                        start.put(partition, offset < 0 ? end.get(partition) : offset));
                }
            }
        }
        return start;
    }

    /** Whether a plan reads a source from anywhere but its beginning. */
    public static boolean startsLate(PhysicalPlan plan) {
        return plan.steps().stream().anyMatch(step -> step instanceof SourceScanStep source
            && !source.formatOptions().getOrDefault(STARTUP_MODE, "earliest").equals("earliest"));
    }

    /** The source options that say where views start reading a source's topic. */
    public static final String STARTUP_MODE = "scan.startup.mode";
    public static final String STARTUP_TIMESTAMP = "scan.startup.timestamp.millis";

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
