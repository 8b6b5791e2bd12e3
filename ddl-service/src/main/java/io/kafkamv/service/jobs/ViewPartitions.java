package io.kafkamv.service.jobs;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.topology.EncodedViewStore;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * The partitions of a view's rows and where they are read: a whole read must cover every partition, each from
 * the one instance that holds it active and has it ready. Kafka Streams' store over all local partitions skips
 * a partition still restoring (after a restart or a move), and its metadata lists no host for one between
 * owners, so a read that trusted them could return part of the rows as if whole.
 */
final class ViewPartitions {

    private final KafkaStreams streams;
    private final String store;
    /** How the store's rows are read. */
    private final EncodedViewStore rows;
    /** The topics the store's tasks read, by full name: a task and its store partition per partition of them. */
    private final Set<String> sourceTopics;
    private volatile int count;

    ViewPartitions(KafkaStreams streams, String store, PhysicalPlan plan, Set<String> sourceTopics) {
        this.streams = streams;
        this.store = store;
        this.rows = new EncodedViewStore(plan);
        this.sourceTopics = Set.copyOf(sourceTopics);
    }

    /** The topics of the sub-topology that keeps {@code store}, as its tasks' consumers name them. */
    static Set<String> sourceTopics(TopologyDescription topology, String store, String applicationId) {
        Set<String> topics = new HashSet<>();
        for (TopologyDescription.Subtopology subtopology : topology.subtopologies()) {
            boolean keepsStore = subtopology.nodes().stream().anyMatch(node ->
                node instanceof TopologyDescription.Processor processor && processor.stores().contains(store));
            if (!keepsStore) {
                continue;
            }
            for (TopologyDescription.Node node : subtopology.nodes()) {
                if (node instanceof TopologyDescription.Source source && source.topicSet() != null) {
                    // Repartition topics are named without the application id in the description.
                    source.topicSet().forEach(topic -> topics.add(topic.endsWith("-repartition")
                        ? applicationId + "-" + topic : topic));
                }
            }
        }
        return topics;
    }

    /** How many partitions the view's rows have: those of its tasks' topics, which do not change. */
    int count(Admin admin) throws InterruptedException {
        if (count == 0) {
            if (sourceTopics.isEmpty()) {
                throw new IllegalStateException("the view's store " + store + " has no source topics in its topology");
            }
            String topic = sourceTopics.iterator().next();
            try {
                count = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
                    .partitions().size();
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("cannot count the partitions of " + topic + ": " + e.getMessage(), e);
            }
        }
        return count;
    }

    /** The partitions each instance holds active now, by its REST address; one between owners is in none. */
    Map<String, Set<Integer>> byHost() {
        Map<String, Set<Integer>> hosts = new TreeMap<>();
        streams.streamsMetadataForStore(store).forEach(metadata -> {
            Set<Integer> partitions = hosts.computeIfAbsent(
                metadata.hostInfo().host() + ":" + metadata.hostInfo().port(), host -> new TreeSet<>());
            for (TopicPartition partition : metadata.topicPartitions()) {
                if (sourceTopics.contains(partition.topic())) {
                    partitions.add(partition.partition());
                }
            }
        });
        return hosts;
    }

    /**
     * Iterators over every row of these partitions in this instance's stores, as stored, opened together, so that
     * each sees its partition as it is now; the caller closes them. When one cannot be opened, those opened are
     * closed again.
     *
     * @throws InvalidStateStoreException when one of them is not active and ready here (moved, or restoring)
     */
    List<ViewScan.StoredRows> open(Set<Integer> partitions) {
        List<ViewScan.StoredRows> opened = new ArrayList<>(partitions.size());
        try {
            for (int partition : partitions) {
                EncodedViewStore.Partition store = partition(partition);
                opened.add(new ViewScan.StoredRows(store.all(), store));
            }
            return opened;
        } catch (RuntimeException e) {
            opened.forEach(rows -> rows.entries().close());
            throw e;
        }
    }

    /** The row of {@code key} in its partition here; an InvalidStateStoreException when that partition is not ready here. */
    Object[] get(int partition, Object[] key) {
        return partition(partition).get(key);
    }

    /** The rows in the partitions active here now; an InvalidStateStoreException when one is not ready. */
    long countHere() {
        Set<Integer> here = new TreeSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                task.topicPartitions().stream().filter(partition -> sourceTopics.contains(partition.topic()))
                    .forEach(partition -> here.add(partition.partition()));
            }
        }
        long rows = 0;
        for (int partition : here) {
            EncodedViewStore.Partition store = partition(partition);
            try (var all = store.all()) {
                while (all.hasNext()) {
                    if (store.holdsRow(all.next().value)) {
                        rows++;
                    }
                }
            }
        }
        return rows;
    }

    private EncodedViewStore.Partition partition(int partition) {
        return streams.store(StoreQueryParameters.fromNameAndType(store, rows).withPartition(partition));
    }
}
