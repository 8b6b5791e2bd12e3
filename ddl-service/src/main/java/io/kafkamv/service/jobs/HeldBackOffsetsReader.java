package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kafkamv.compiler.runtime.HeldBackOffsets;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Which input records a job's partial aggregates hold back as of its last commit, read from the
 * changelogs of their {@link HeldBackOffsets} stores: per input partition, the first offset held
 * back. Each changelog partition has a single key written at most once per commit, in the commit's
 * transaction, so its last committed record is the task's state at its last commit that changed it.
 * A commit's markers reach its partitions one by one, so a partition with a transaction still open
 * (its last stable offset below its high watermark) may not show the state the committed offsets
 * already count: then the answer is "not known yet", never "nothing held back".
 */
final class HeldBackOffsetsReader {

    private static final int FIRST_WINDOW = 16;
    private static final Duration READ_LIMIT = Duration.ofSeconds(10);

    private HeldBackOffsetsReader() {
    }

    /**
     * The first held-back offset per input partition ({@code topic:partition}), over every task of the job.
     *
     * @throws IllegalStateException when a changelog has a transaction in flight, so its state is not known yet
     */
    static Map<String, Long> read(Admin admin, Properties clientProperties, Collection<String> changelogs)
            throws ExecutionException, InterruptedException, TimeoutException {
        Map<String, Long> heldBack = new HashMap<>();
        if (changelogs.isEmpty()) {
            return heldBack;
        }
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // A partition read to its end must not hold the answer back by the broker's wait for more data.
        properties.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        try (KafkaConsumer<byte[], String> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : changelogs) {
                for (PartitionInfo info : consumer.partitionsFor(topic, READ_LIMIT)) {
                    partitions.add(new TopicPartition(topic, info.partition()));
                }
            }
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, READ_LIMIT);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            partitions.forEach(partition -> latest.put(partition, OffsetSpec.latest()));
            var highWatermarks = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all()
                .get(READ_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            for (TopicPartition partition : partitions) {
                if (highWatermarks.get(partition).offset() > ends.getOrDefault(partition, 0L)) {
                    throw new IllegalStateException(partition + " has a transaction in flight");
                }
            }
            lastValues(consumer, ends).values().forEach(value -> HeldBackOffsets.decode(value)
                .forEach((input, first) -> heldBack.merge(input, first, Math::min)));
        }
        return heldBack;
    }

    /**
     * The value of the last committed record before the end of each partition (none for a tombstone).
     * Reads all partitions at once, from a few offsets before their ends first, as commit markers take
     * offsets too, then from further back for those where that found no record.
     */
    private static Map<TopicPartition, String> lastValues(KafkaConsumer<byte[], String> consumer,
                                                          Map<TopicPartition, Long> ends) {
        Map<TopicPartition, String> values = new HashMap<>();
        Map<TopicPartition, Long> unread = new HashMap<>();
        ends.forEach((partition, end) -> {
            if (end > 0) {
                unread.put(partition, end);
            }
        });
        long window = FIRST_WINDOW;
        long deadline = System.nanoTime() + READ_LIMIT.toNanos();
        while (!unread.isEmpty()) {
            consumer.assign(unread.keySet());
            Map<TopicPartition, Long> froms = new HashMap<>();
            for (Map.Entry<TopicPartition, Long> entry : unread.entrySet()) {
                long from = Math.max(0, entry.getValue() - window);
                froms.put(entry.getKey(), from);
                consumer.seek(entry.getKey(), from);
            }
            Map<TopicPartition, ConsumerRecord<byte[], String>> last = new HashMap<>();
            while (unread.keySet().stream().anyMatch(partition -> consumer.position(partition) < unread.get(partition))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot read " + unread.keySet() + " up to their ends");
                }
                for (ConsumerRecord<byte[], String> record : consumer.poll(Duration.ofMillis(100))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() < unread.get(partition)) {
                        last.put(partition, record);
                    }
                }
            }
            for (TopicPartition partition : List.copyOf(unread.keySet())) {
                if (last.containsKey(partition) || froms.get(partition) == 0) {
                    ConsumerRecord<byte[], String> record = last.get(partition);
                    values.put(partition, record == null ? null : record.value());
                    unread.remove(partition);
                }
            }
            window *= 8;
        }
        return values;
    }
}
