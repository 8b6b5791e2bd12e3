package io.kafkamv.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import kafka.server.BrokerServer;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.utils.Time;

/**
 * One combined KRaft controller and broker running in this JVM.
 *
 * <p>This is the only class that touches Kafka's internal server classes, so an upgrade of Kafka
 * that moves them breaks in one place.
 */
final class KafkaNode {

    private final int nodeId;
    private final Path logDir;
    private final Map<String, String> config;
    private KafkaRaftServer server;

    KafkaNode(int nodeId, Path logDir, Map<String, String> config) {
        this.nodeId = nodeId;
        this.logDir = logDir;
        this.config = Map.copyOf(config);
    }

    int nodeId() {
        return nodeId;
    }

    synchronized boolean isRunning() {
        return server != null;
    }

    /** Formats the log dir unless it already holds this cluster's data, then starts the node. */
    synchronized void start(String clusterId) throws IOException {
        if (server != null) {
            return;
        }
        Files.createDirectories(logDir);
        Path propertiesFile = logDir.resolveSibling(logDir.getFileName() + ".properties");
        writeProperties(propertiesFile);
        format(clusterId, propertiesFile);
        KafkaRaftServer raftServer = new KafkaRaftServer(new KafkaConfig(properties()), Time.SYSTEM);
        raftServer.startup();
        server = raftServer;
    }

    /**
     * Stops the broker half of the node, leaving its controller up. When the whole cluster stops, every
     * broker must be gone before any controller goes: a broker's clean shutdown waits for the active
     * controller to let it go (five minutes at most, not configurable), and a broker left last once the
     * other nodes' controllers have stopped finds no quorum to ask. {@link KafkaRaftServer} stops both halves
     * in one call and does not expose them, hence the reflection.
     */
    synchronized void stopBroker() {
        if (server == null) {
            return;
        }
        try {
            java.lang.reflect.Field field = KafkaRaftServer.class.getDeclaredField("broker");
            field.setAccessible(true);
            scala.Option<?> broker = (scala.Option<?>) field.get(server);
            if (broker.isDefined()) {
                BrokerServer brokerServer = (BrokerServer) broker.get();
                brokerServer.shutdown();
                brokerServer.awaitShutdown();
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("This version of Kafka's KafkaRaftServer has no broker field", e);
        }
    }

    synchronized void stop() {
        if (server == null) {
            return;
        }
        server.shutdown();
        server.awaitShutdown();
        server = null;
    }

    private void format(String clusterId, Path propertiesFile) {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        String[] args = {
            "format", "--ignore-formatted", "-t", clusterId, "-c", propertiesFile.toString()
        };
        int exitCode;
        try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            exitCode = StorageTool.execute(args, out);
        }
        if (exitCode != 0) {
            throw new IllegalStateException("Formatting Kafka log dir " + logDir + " failed: "
                + output.toString(StandardCharsets.UTF_8));
        }
    }

    private Properties properties() {
        Properties properties = new Properties();
        properties.putAll(config);
        return properties;
    }

    private void writeProperties(Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            properties().store(out, "Written by kafka-mv for node " + nodeId);
        }
    }
}
