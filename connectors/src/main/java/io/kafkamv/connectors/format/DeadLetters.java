package io.kafkamv.connectors.format;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;

import io.kafkamv.connectors.kafka.TopicScan;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.header.Header;

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
        Set<String> positions = new HashSet<>();
        TopicScan.toEnd(properties, topic, record -> {
            Header position = record.headers().lastHeader(POSITION_HEADER);
            // A record without its source position (an older one) counts on its own.
            positions.add(position == null ? "here " + record.partition() + ":" + record.offset()
                : new String(position.value(), StandardCharsets.UTF_8));
        });
        return positions.size();
    }
}
