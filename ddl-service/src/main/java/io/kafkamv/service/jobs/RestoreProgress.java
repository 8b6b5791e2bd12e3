package io.kafkamv.service.jobs;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * The records left to restore of each store partition a Kafka Streams instance is restoring here, by store and
 * partition, as it reports them: what says whether a view's local state is whole.
 */
final class RestoreProgress implements StateRestoreListener {

    private final Map<StorePartition, Long> restoring = new ConcurrentHashMap<>();

    private record StorePartition(String store, TopicPartition partition) {
        @Override
        public String toString() {
            return store + "/" + partition;
        }
    }

    /** Whether no store is being restored. */
    boolean done() {
        return restoring.isEmpty();
    }

    /** Whether no store whose name begins with {@code prefix} is being restored. */
    boolean doneFor(String prefix) {
        return restoring.keySet().stream().noneMatch(key -> key.store().startsWith(prefix));
    }

    /** What is left to restore, by store and partition, for a log line. */
    Map<String, Long> left() {
        Map<String, Long> left = new TreeMap<>();
        restoring.forEach((key, records) -> left.put(key.toString(), records));
        return left;
    }

    /** The changelog partitions being restored. */
    java.util.Set<TopicPartition> partitions() {
        return restoring.keySet().stream().map(StorePartition::partition).collect(java.util.stream.Collectors.toSet());
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
        restoring.put(new StorePartition(store, partition), end - start);
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long batchEnd, long restored) {
        restoring.computeIfPresent(new StorePartition(store, partition), (key, left) -> Math.max(0, left - restored));
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long restored) {
        restoring.remove(new StorePartition(store, partition));
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String store, long restored) {
        restoring.remove(new StorePartition(store, partition));
    }
}
