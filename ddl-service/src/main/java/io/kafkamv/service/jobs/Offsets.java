package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.plan.SourceScanStep;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Start and end offsets of whole topics, keyed {@code topic:partition} as jobs store them. */
public final class Offsets {

    private static final Logger LOG = LoggerFactory.getLogger(Offsets.class);

    private Offsets() {
    }

    /** Where a new job starts reading each partition of its sources, and where its backfill ends. */
    public record Range(Map<String, Long> start, Map<String, Long> end) {
    }

    public static Map<String, Long> end(Admin admin, Collection<String> topics) {
        return keyed(list(admin, partitions(admin, topics), OffsetSpec.latest()), topics);
    }

    /**
     * The end of committed data of every partition: before any open transaction's first record (the last stable
     * offset), so a transaction a job has not committed yet is not counted as data.
     */
    static Map<String, Long> committedEnd(Admin admin, Collection<String> topics) {
        return keyed(list(admin, partitions(admin, topics), OffsetSpec.latest(),
            new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)), topics);
    }

    public static Map<String, Long> start(Admin admin, Collection<String> topics) {
        return keyed(list(admin, partitions(admin, topics), OffsetSpec.earliest()), topics);
    }

    /**
     * A new job's range. It starts at the beginning of each source, except for sources created with
     * {@code scan.startup.mode = 'latest'} (their end now) or {@code 'timestamp'} (the first record at
     * or after {@code scan.startup.timestamp.millis}, or the end when there is none). Both ends are
     * asked for at once: a background CREATE waits for them.
     */
    public static Range ofNewJob(Admin admin, PhysicalPlan plan) {
        return ofNewJob(admin, plan, METADATA_DEADLINE);
    }

    /**
     * How long a new job waits for its sources' topics to be known to the brokers: a topic created a moment
     * ago (CREATE TABLE, then CREATE MATERIALIZED VIEW over it) may not have reached every broker's metadata
     * yet, and that is no reason to fail the CREATE.
     */
    static final Duration METADATA_DEADLINE = Duration.ofSeconds(15);

    static Range ofNewJob(Admin admin, PhysicalPlan plan, Duration deadline) {
        long giveUp = System.nanoTime() + deadline.toNanos();
        long backoffMillis = 50;
        while (true) {
            try {
                return rangeOf(admin, plan);
            } catch (IllegalStateException e) {
                if (!(e.getCause() instanceof ExecutionException failed && failed.getCause() instanceof RetriableException)
                    || System.nanoTime() > giveUp) {
                    throw e;
                }
                LOG.debug("Offsets of {} not readable yet, retrying: {}", plan.sourceTopics(), e.getMessage());
            }
            try {
                Thread.sleep(backoffMillis);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while reading offsets of " + plan.sourceTopics(), interrupted);
            }
            backoffMillis = Math.min(backoffMillis * 2, 1_000);
        }
    }

    private static Range rangeOf(Admin admin, PhysicalPlan plan) {
        List<String> topics = plan.sourceTopics();
        Set<TopicPartition> partitions = partitions(admin, topics);
        KafkaFuture<Map<TopicPartition, ListOffsetsResultInfo>> earliest = list(admin, partitions, OffsetSpec.earliest());
        KafkaFuture<Map<TopicPartition, ListOffsetsResultInfo>> latest = list(admin, partitions, OffsetSpec.latest());
        Map<String, Long> start = new HashMap<>(keyed(earliest, topics));
        Map<String, Long> end = keyed(latest, topics);
        for (PlanStep step : plan.steps()) {
            if (step instanceof SourceScanStep source) {
                String mode = source.formatOptions().getOrDefault(STARTUP_MODE, "earliest");
                Set<TopicPartition> ofSource = partitions.stream()
                    .filter(partition -> partition.topic().equals(source.topic())).collect(Collectors.toSet());
                if (mode.equals("latest")) {
                    ofSource.forEach(partition -> start.put(BackfillProgress.key(partition), end.get(BackfillProgress.key(partition))));
                } else if (mode.equals("timestamp")) {
                    long millis = Long.parseLong(source.formatOptions().get(STARTUP_TIMESTAMP));
                    keyed(list(admin, ofSource, OffsetSpec.forTimestamp(millis)), topics).forEach((partition, offset) ->
                        start.put(partition, offset < 0 ? end.get(partition) : offset));
                }
            }
        }
        return new Range(Map.copyOf(start), end);
    }

    /** Whether a plan reads a source from anywhere but its beginning. */
    public static boolean startsLate(PhysicalPlan plan) {
        return plan.steps().stream().anyMatch(step -> step instanceof SourceScanStep source
            && !source.formatOptions().getOrDefault(STARTUP_MODE, "earliest").equals("earliest"));
    }

    /** The source options that say where views start reading a source's topic. */
    public static final String STARTUP_MODE = "scan.startup.mode";
    public static final String STARTUP_TIMESTAMP = "scan.startup.timestamp.millis";

    private static Set<TopicPartition> partitions(Admin admin, Collection<String> topics) {
        Map<String, TopicDescription> descriptions = await(admin.describeTopics(topics).allTopicNames(), topics);
        Set<TopicPartition> partitions = new HashSet<>();
        descriptions.values().forEach(description -> description.partitions().forEach(partition ->
            partitions.add(new TopicPartition(description.name(), partition.partition()))));
        return partitions;
    }

    private static KafkaFuture<Map<TopicPartition, ListOffsetsResultInfo>> list(Admin admin, Set<TopicPartition> partitions,
                                                                                OffsetSpec spec) {
        return list(admin, partitions, spec, new ListOffsetsOptions());
    }

    private static KafkaFuture<Map<TopicPartition, ListOffsetsResultInfo>> list(Admin admin, Set<TopicPartition> partitions,
                                                                                OffsetSpec spec, ListOffsetsOptions options) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(partition -> request.put(partition, spec));
        return admin.listOffsets(request, options).all();
    }

    /** The offsets, once listed, keyed as jobs store them. */
    private static Map<String, Long> keyed(KafkaFuture<Map<TopicPartition, ListOffsetsResultInfo>> offsets,
                                           Collection<String> topics) {
        Map<String, Long> keyed = new HashMap<>();
        await(offsets, topics)
            .forEach((partition, info) -> keyed.put(BackfillProgress.key(partition), info.offset()));
        return keyed;
    }

    private static <T> T await(Future<T> future, Collection<String> topics) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading offsets of " + topics, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot read offsets of " + topics + ": " + e.getMessage(), e);
        }
    }

    /** The topics of offsets kept by partition, as a job keeps its targets. */
    public static List<String> topicsOf(Map<String, Long> offsets) {
        return offsets.keySet().stream().map(key -> BackfillProgress.parse(key).topic()).distinct().toList();
    }
}
