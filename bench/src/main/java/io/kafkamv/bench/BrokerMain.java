package io.kafkamv.bench;

import io.kafkamv.embedded.EmbeddedKafkaCluster;
import java.nio.file.Path;

/**
 * A single-node KRaft broker as its own JVM, {@code BrokerMain <data dir>}: the external broker a deployment
 * points kafka-mv at with {@code --bootstrap-servers}. It prints its bootstrap address after {@link #READY}.
 */
public final class BrokerMain {

    public static final String READY = "broker ready: ";

    private BrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().dataDir(Path.of(args[0])).build().start();
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::close));
        System.out.println(READY + kafka.bootstrapServers());
        Thread.currentThread().join();
    }
}
