package io.kafkamv.service.jobs;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import io.kafkamv.jobstore.Job;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A job's offsets as the cluster's admin API and its changelogs tell them. */
final class KafkaJobOffsets implements JobOffsets {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaJobOffsets.class);

    private final Admin admin;
    private final Properties clientProperties;
    /** Whether a job's view runs in the shared application ({@link SharedRuntime}), whose group has its offsets. */
    private final java.util.function.LongPredicate shared;

    KafkaJobOffsets(Admin admin, Properties clientProperties, java.util.function.LongPredicate shared) {
        this.admin = admin;
        this.clientProperties = clientProperties;
        this.shared = shared;
    }

    @Override
    public Map<String, Long> committed(Job job) {
        try {
            return committedOrThrow(job);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("Cannot read committed offsets of job {}: {}", job.id(), e.toString());
            return Map.of();
        }
    }

    /**
     * The committed offsets of each job, read in one request (a reconcile reads those of every backfill running here;
     * one request per job took most of its time under load). A job whose offsets cannot be read is left out.
     */
    Map<Long, Map<String, Long>> committedOfEach(Collection<Job> jobs) {
        if (jobs.isEmpty()) {
            return Map.of();
        }
        Map<String, ListConsumerGroupOffsetsSpec> groups = new HashMap<>();
        jobs.forEach(job -> groups.put(ViewRuntime.applicationId(job), new ListConsumerGroupOffsetsSpec()));
        ListConsumerGroupOffsetsResult result = admin.listConsumerGroupOffsets(groups);
        Map<Long, Map<String, Long>> committed = new HashMap<>();
        for (Job job : jobs) {
            try {
                committed.put(job.id(), keyed(result.partitionsToOffsetAndMetadata(ViewRuntime.applicationId(job))
                    .get(10, TimeUnit.SECONDS)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return committed;
            } catch (ExecutionException | TimeoutException e) {
                LOG.debug("Cannot read committed offsets of job {}: {}", job.id(), e.toString());
            }
        }
        return committed;
    }

    /** The offsets the job's application has committed, or why they cannot be read: empty means there are none. */
    Map<String, Long> committedOrThrow(Job job) throws ExecutionException, InterruptedException, TimeoutException {
        if (!shared.test(job.id())) {
            return keyed(groupOffsets(ViewRuntime.applicationId(job)));
        }
        // The shared group's: its sources and its own internal topics, not the other members'.
        Map<String, Long> committed = keyed(groupOffsets(SharedRuntime.APPLICATION_ID));
        committed.keySet().removeIf(partition -> {
            String topic = BackfillProgress.parse(partition).topic();
            return topic.startsWith("kmv-job-") && !ViewRuntime.isInternalTopicOf(topic, job.id(), job.generation());
        });
        return committed;
    }

    @Override
    public Map<String, Long> writtenToDatabase(long jobId) throws ExecutionException, InterruptedException, TimeoutException {
        return keyed(groupOffsets(ViewRuntime.jdbcGroupId(jobId)));
    }

    @Override
    public Set<String> internalTopics(Job job) throws ExecutionException, InterruptedException, TimeoutException {
        return admin.listTopics().names().get(10, TimeUnit.SECONDS).stream()
            .filter(topic -> ViewRuntime.isInternalTopicOf(topic, job.id(), job.generation()))
            .collect(Collectors.toSet());
    }

    @Override
    public Map<String, Long> ends(Collection<String> topics) {
        return topics.isEmpty() ? Map.of() : Offsets.end(admin, topics);
    }

    @Override
    public Optional<Map<String, Long>> heldBack(Collection<String> changelogs) {
        try {
            return Optional.of(HeldBackOffsetsReader.read(admin, clientProperties, changelogs));
        } catch (KafkaException | IllegalStateException | ExecutionException | TimeoutException e) {
            LOG.debug("Cannot read held-back partials from {} yet: {}", changelogs, e.toString());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * Source records the job's consumer group has not committed yet, over every instance: how far the
     * object trails its sources.
     */
    long lag(Job job, List<String> sources) throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, Long> committed = committedOrThrow(job);
        Map<String, Long> start = Offsets.start(admin, sources);
        long lag = 0;
        for (Map.Entry<String, Long> end : Offsets.end(admin, sources).entrySet()) {
            long position = committed.getOrDefault(end.getKey(), start.getOrDefault(end.getKey(), 0L));
            lag += Math.max(0, end.getValue() - position);
        }
        return lag;
    }

    /** Sets a new job's group offsets, before its first start, to where its record says it starts. */
    void seed(Job job, Map<String, Long> start) throws ExecutionException, InterruptedException, TimeoutException {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        start.forEach((partition, offset) -> offsets.put(BackfillProgress.parse(partition), new OffsetAndMetadata(offset)));
        admin.alterConsumerGroupOffsets(ViewRuntime.applicationId(job), offsets).all().get(30, TimeUnit.SECONDS);
    }

    private Map<TopicPartition, OffsetAndMetadata> groupOffsets(String groupId)
            throws ExecutionException, InterruptedException, TimeoutException {
        return admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
    }

    /** A group's offsets keyed as jobs store them; a partition the group has no offset for is left out. */
    private static Map<String, Long> keyed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        Map<String, Long> keyed = new HashMap<>();
        offsets.forEach((partition, commit) -> {
            if (commit != null) {
                keyed.put(BackfillProgress.key(partition), commit.offset());
            }
        });
        return keyed;
    }
}
