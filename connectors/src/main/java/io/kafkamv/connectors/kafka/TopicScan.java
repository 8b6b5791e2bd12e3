package io.kafkamv.connectors.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a whole topic once, without a consumer group: every partition from its beginning up to the
 * end it had when the scan started, so a topic that keeps growing does not keep the scan going.
 */
public final class TopicScan {

    private TopicScan() {
    }

    /** Hands each record to {@code each}, partition by partition in offset order. */
    public static void toEnd(Properties clientProperties, String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
        // Up to the last stable offset, without aborted writes: what views (exactly once) see too.
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition()))
                .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
                        each.accept(record);
                    }
                }
            }
        }
    }
}
