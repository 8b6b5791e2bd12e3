package io.kafkamv.it.support;

import java.nio.file.Path;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Where a service under test finds its Kafka broker when it is not its own embedded one. The default build has
 * no implementation, so every service starts its embedded broker; the {@code testcontainers} Maven profile adds
 * one that gives each data directory a broker in a container (see README, "Tests").
 */
public interface ExternalKafka {

    /** The bootstrap servers of the broker for the service with this data directory, the same one on each restart. */
    String bootstrapServers(Path dataDir);

    /** The implementation on the test class path, if a profile put one there. */
    static Optional<ExternalKafka> installed() {
        return ServiceLoader.load(ExternalKafka.class).findFirst();
    }
}
