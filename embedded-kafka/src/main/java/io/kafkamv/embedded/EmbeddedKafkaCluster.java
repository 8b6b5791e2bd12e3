package io.kafkamv.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka cluster of one or more combined KRaft nodes in this JVM.
 *
 * <p>The launcher runs one node on a persistent data dir; tests run one or three nodes on a
 * temporary one. Nodes start and stop in parallel: a multi-node quorum started one node at a
 * time never elects a leader, and stopped one at a time the last nodes hang without a majority.
 */
public final class EmbeddedKafkaCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);
    private static final String CLUSTER_ID_FILE = "cluster.id";

    private final Path dataDir;
    private final boolean temporaryDataDir;
    private final List<KafkaNode> nodes;
    private final List<Integer> clientPorts;
    private String clusterId;

    private EmbeddedKafkaCluster(Builder builder) throws IOException {
        this.temporaryDataDir = builder.dataDir == null;
        this.dataDir = temporaryDataDir
            ? Files.createTempDirectory("kafka-mv-kafka-")
            : builder.dataDir.toAbsolutePath();
        int size = builder.nodes;
        List<Integer> brokerPorts = new ArrayList<>();
        List<Integer> controllerPorts = new ArrayList<>();
        // A port found free is free until someone binds it: the client port asked for (not bound yet) and the
        // ports found before must not be handed out again, or two listeners of a node share one.
        Set<Integer> taken = new HashSet<>();
        if (builder.clientPort > 0) {
            taken.add(builder.clientPort);
        }
        for (int i = 0; i < size; i++) {
            brokerPorts.add(i == 0 && builder.clientPort > 0 ? builder.clientPort : freePort(taken));
            controllerPorts.add(freePort(taken));
        }
        String voters = IntStream.range(0, size)
            .mapToObj(i -> i + "@localhost:" + controllerPorts.get(i))
            .collect(Collectors.joining(","));
        List<KafkaNode> created = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            Path logDir = dataDir.resolve("node-" + i);
            Map<String, String> config = nodeConfig(i, size, voters, brokerPorts.get(i),
                controllerPorts.get(i), logDir);
            config.putAll(builder.brokerConfig);
            created.add(new KafkaNode(i, logDir, config));
        }
        this.nodes = List.copyOf(created);
        this.clientPorts = List.copyOf(brokerPorts);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts every node, in parallel, and returns once all brokers are registered. */
    public EmbeddedKafkaCluster start() {
        long started = System.nanoTime();
        clusterId = readOrCreateClusterId();
        runOnAllNodes(node -> {
            try {
                node.start(clusterId);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, nodes);
        awaitBrokers(nodes.size(), Duration.ofSeconds(60));
        LOG.info("Kafka cluster {} of {} node(s) ready at {} in {} ms", clusterId, nodes.size(),
            bootstrapServers(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return this;
    }

    /** The comma-separated addresses of every node, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return clientPorts.stream().map(port -> "localhost:" + port).collect(Collectors.joining(","));
    }

    public int size() {
        return nodes.size();
    }

    public String clusterId() {
        return clusterId;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Client properties that reach this cluster; callers add their own settings. */
    public Properties clientProperties() {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return properties;
    }

    /** Stops one node as a clean shutdown would; the others keep serving if a majority is left. */
    public void stopNode(int nodeId) {
        nodes.get(nodeId).stop();
    }

    /** Starts a node stopped by {@link #stopNode}, on the same ports and data. */
    public void startNode(int nodeId) {
        try {
            nodes.get(nodeId).start(clusterId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops every node at once, keeping their data: the whole cluster down, as in a power cut handled cleanly. */
    public void stopAllNodes() {
        List<KafkaNode> running = nodes.stream().filter(KafkaNode::isRunning).toList();
        // Brokers first, all of them, while the controllers are there to let them go (see KafkaNode.stopBroker).
        runOnAllNodes(KafkaNode::stopBroker, running);
        runOnAllNodes(KafkaNode::stop, running);
    }

    /**
     * Starts every stopped node at once, on the same ports and data, and waits until all brokers serve.
     * Together, because a KRaft controller waits for a majority of the quorum before it serves.
     */
    public void startAllNodes() {
        runOnAllNodes(node -> {
            try {
                node.start(clusterId);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, nodes.stream().filter(node -> !node.isRunning()).toList());
        awaitBrokers(nodes.size(), Duration.ofSeconds(60));
    }

    /** The node whose controller leads the KRaft quorum right now. */
    public int activeControllerId() {
        try (Admin admin = Admin.create(clientProperties())) {
            return admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while asking for the active controller", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot find the active controller: " + e.getMessage(), e);
        }
    }

    public boolean isRunning(int nodeId) {
        return nodes.get(nodeId).isRunning();
    }

    @Override
    public void close() {
        stopAllNodes();
        if (temporaryDataDir) {
            deleteRecursively(dataDir);
        }
    }

    private void awaitBrokers(int expected, Duration timeout) {
        Properties properties = clientProperties();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(properties)) {
            while (true) {
                try {
                    int brokers = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
                    if (brokers >= expected) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    LOG.debug("Cluster not ready yet: {}", e.toString());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                        "Kafka cluster did not register " + expected + " brokers within " + timeout);
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for Kafka brokers", e);
        }
    }

    private String readOrCreateClusterId() {
        Path file = dataDir.resolve(CLUSTER_ID_FILE);
        try {
            if (Files.exists(file)) {
                return Files.readString(file, StandardCharsets.UTF_8).trim();
            }
            String id = Uuid.randomUuid().toString();
            Files.createDirectories(dataDir);
            Files.writeString(file, id, StandardCharsets.UTF_8);
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or write " + file, e);
        }
    }

    private static Map<String, String> nodeConfig(int nodeId, int clusterSize, String voters,
                                                  int brokerPort, int controllerPort, Path logDir) {
        String replicas = String.valueOf(Math.min(3, clusterSize));
        String minIsr = String.valueOf(Math.min(2, clusterSize));
        Map<String, String> config = new LinkedHashMap<>();
        config.put("process.roles", "broker,controller");
        config.put("node.id", String.valueOf(nodeId));
        config.put("controller.quorum.voters", voters);
        config.put("listeners",
            "PLAINTEXT://localhost:" + brokerPort + ",CONTROLLER://localhost:" + controllerPort);
        config.put("advertised.listeners", "PLAINTEXT://localhost:" + brokerPort);
        config.put("controller.listener.names", "CONTROLLER");
        config.put("inter.broker.listener.name", "PLAINTEXT");
        config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        config.put("log.dirs", logDir.toString());
        config.put("offsets.topic.replication.factor", replicas);
        config.put("offsets.topic.num.partitions", "8");
        config.put("transaction.state.log.replication.factor", replicas);
        config.put("transaction.state.log.min.isr", minIsr);
        config.put("share.coordinator.state.topic.replication.factor", replicas);
        config.put("share.coordinator.state.topic.min.isr", minIsr);
        config.put("default.replication.factor", replicas);
        config.put("group.initial.rebalance.delay.ms", "0");
        // A lost node is noticed in about two seconds instead of nine.
        config.put("broker.session.timeout.ms", "2000");
        config.put("broker.heartbeat.interval.ms", "500");
        config.put("unclean.leader.election.enable", "false");
        // The log cleaner keeps its dedupe buffer on the heap: 128 MiB by default, most of an idle
        // service's heap. 16 MiB still compacts about 700,000 keys per pass.
        config.put("log.cleaner.dedupe.buffer.size", String.valueOf(16 * 1024 * 1024));
        return config;
    }

    private static void runOnAllNodes(java.util.function.Consumer<KafkaNode> action,
                                      List<KafkaNode> targets) {
        List<CompletableFuture<Void>> futures = targets.stream()
            .map(node -> CompletableFuture.runAsync(() -> action.accept(node),
                runnable -> {
                    Thread thread = new Thread(runnable, "kafka-node-" + node.nodeId() + "-lifecycle");
                    thread.start();
                }))
            .toList();
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }

    /** A free port of the loopback interface that is not in {@code taken}, which it joins. */
    private static int freePort(Set<Integer> taken) {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                socket.setReuseAddress(true);
                if (taken.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("No free port on the loopback interface", e);
            }
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.warn("Could not delete temporary Kafka data in {}: {}", root, e.toString());
        }
    }

    /** How to build a cluster; every setting has a default fit for a test. */
    public static final class Builder {
        private int nodes = 1;
        private Path dataDir;
        private int clientPort;
        private final Map<String, String> brokerConfig = new HashMap<>();

        private Builder() {
        }

        public Builder nodes(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("A cluster needs at least one node, not " + count);
            }
            this.nodes = count;
            return this;
        }

        /** Keeps the cluster's data in this directory across restarts; a temporary one otherwise. */
        public Builder dataDir(Path directory) {
            this.dataDir = directory;
            return this;
        }

        /** The client port of the first node; a free port when unset or 0. */
        public Builder clientPort(int port) {
            this.clientPort = port;
            return this;
        }

        /** A broker setting applied to every node, overriding the defaults. */
        public Builder brokerConfig(String key, String value) {
            brokerConfig.put(key, value);
            return this;
        }

        public EmbeddedKafkaCluster build() {
            try {
                return new EmbeddedKafkaCluster(this);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create a data dir for the Kafka cluster", e);
            }
        }
    }
}
