package io.kafkamv.it.containers;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.kafkamv.it.support.ExternalKafka;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Kafka broker in a container for each service data directory, kept across the service's restarts as its
 * embedded broker would be; Testcontainers' reaper removes them when the test JVM ends. Only in the
 * {@code testcontainers} profile, on a machine with a Docker engine. The image is
 * {@code -Dkafkamv.it.kafka-image} (default {@value #DEFAULT_IMAGE}).
 */
public final class KafkaContainers implements ExternalKafka {

    static final String DEFAULT_IMAGE = "apache/kafka:4.1.0";

    private static final Map<Path, KafkaContainer> BROKERS = new ConcurrentHashMap<>();

    @Override
    public String bootstrapServers(Path dataDir) {
        return BROKERS.computeIfAbsent(dataDir.toAbsolutePath().normalize(), dir -> {
            KafkaContainer broker = new KafkaContainer(
                DockerImageName.parse(System.getProperty("kafkamv.it.kafka-image", DEFAULT_IMAGE)));
            broker.start();
            return broker;
        }).getBootstrapServers();
    }
}
