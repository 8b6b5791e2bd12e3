package io.kafkamv.connectors.format;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A source's dead-letter topic: the records that could not be read, with the reason in
 * {@link #ERROR_HEADER} and where they were in {@link #POSITION_HEADER}. Every view over a source
 * sets aside its bad records, so one bad record may be there once per view; it is counted once.
 */
public final class DeadLetters {

    public static final String ERROR_HEADER = "kmv.error";
    public static final String POSITION_HEADER = "kmv.source.position";

    private DeadLetters() {
    }

    public static byte[] position(int partition, long offset) {
        return (partition + ":" + offset).getBytes(StandardCharsets.UTF_8);
    }

    /** How many records of the source could not be read: the distinct positions in its dead-letter topic. */
    public static long count(Properties clientProperties, String topic) {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        Set<String> positions = new HashSet<>();
        long withoutPosition = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    Header position = record.headers().lastHeader(POSITION_HEADER);
                    if (position == null) {
                        withoutPosition++;
                    } else {
                        positions.add(new String(position.value(), StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return positions.size() + withoutPosition;
    }
}
