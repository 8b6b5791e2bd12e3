package io.kafkamv.bench;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The data every contender reads: JSON events {@code {"id", "g", "v"}} keyed by id, with 1,000
 * groups, and 1,000 JSON dimension rows {@code {"g", "name"}} keyed by g.
 */
public final class EventTopics {

    public static final String EVENTS = "bench_events";
    public static final String DIMS = "bench_dims";
    public static final int PARTITIONS = 4;
    public static final int GROUPS = 1000;

    private final String bootstrapServers;

    public EventTopics(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    public void create(String... topics) throws InterruptedException, ExecutionException {
        try (Admin admin = Admin.create(Kafka.properties(bootstrapServers))) {
            for (String topic : topics) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }

    /** Appends events with ids {@code [from, to)}. */
    public void appendEvents(String topic, long from, long to) {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (long id = from; id < to; id++) {
                producer.send(new ProducerRecord<>(topic, bytes(Long.toString(id)), bytes(event(id))));
            }
            producer.flush();
        }
    }

    /**
     * Appends events with ids from {@code from} at {@code rate} per second for {@code duration}, in a batch every 100 ms,
     * by one producer; returns the id after the last.
     */
    public long appendEventsAt(String topic, long from, int rate, java.time.Duration duration) {
        long perTick = Math.max(1, rate / 10);
        long ticks = duration.toMillis() / 100;
        long start = System.nanoTime();
        long id = from;
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (long tick = 0; tick < ticks; tick++) {
                // Pacing, not waiting for anything: each batch goes out at its time.
                java.util.concurrent.locks.LockSupport.parkNanos(start + tick * 100_000_000L - System.nanoTime());
                for (long end = id + perTick; id < end; id++) {
                    producer.send(new ProducerRecord<>(topic, bytes(Long.toString(id)), bytes(event(id))));
                }
            }
            producer.flush();
        }
        return id;
    }

    private static String event(long id) {
        return "{\"id\":" + id + ",\"g\":" + id % GROUPS + ",\"v\":" + id % 100 + "}";
    }

    public void appendDims() {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (int g = 0; g < GROUPS; g++) {
                producer.send(new ProducerRecord<>(DIMS, bytes(Integer.toString(g)),
                    bytes("{\"g\":" + g + ",\"name\":\"group-" + g + "\"}")));
            }
            producer.flush();
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        Properties properties = Kafka.properties(bootstrapServers);
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
