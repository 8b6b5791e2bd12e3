package io.kafkamv.service;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kafkamv.embedded.EmbeddedKafkaCluster;
import io.kafkamv.jobstore.JobStoreTopic;
import io.kafkamv.service.pgwire.PgWireServer;
import io.kafkamv.service.rest.RestServer;
import io.kafkamv.service.sql.QueryEngine;
import io.kafkamv.service.sql.StatementExecutor;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One running kafka-mv instance: its Kafka connection, job store and endpoints, started in order. */
public final class KafkaMvService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaMvService.class);

    private final ServiceConfig config;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private volatile boolean ready;
    private String bootstrapServers;
    private PgWireServer pgWire;
    private RestServer rest;

    private KafkaMvService(ServiceConfig config) {
        this.config = config;
    }

    /** Starts everything and returns once the instance serves clients. */
    public static KafkaMvService start(ServiceConfig config) throws IOException, InterruptedException {
        KafkaMvService service = new KafkaMvService(config);
        try {
            service.startAll();
        } catch (IOException | InterruptedException | RuntimeException e) {
            service.close();
            throw e;
        }
        return service;
    }

    private void startAll() throws IOException, InterruptedException {
        if (config.embeddedKafka()) {
            EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder()
                .dataDir(config.dataDir().resolve("kafka"))
                .clientPort(config.kafkaPort())
                .build();
            started.push(kafka);
            kafka.start();
            bootstrapServers = kafka.bootstrapServers();
        } else {
            bootstrapServers = config.bootstrapServers().orElseThrow();
        }
        prepareJobStore();

        StatementExecutor executor = new StatementExecutor(new QueryEngine());
        InetAddress bindAddress = InetAddress.getByName(config.bindAddress());
        pgWire = new PgWireServer(bindAddress, config.pgPort(), executor);
        started.push(pgWire);
        rest = new RestServer(config.bindAddress(), config.httpPort(), () -> ready);
        started.push(rest);
        ready = true;
    }

    private void prepareJobStore() throws InterruptedException {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(properties)) {
            int brokers = admin.describeCluster().nodes().get(60, TimeUnit.SECONDS).size();
            short replicationFactor = (short) Math.min(3, brokers);
            int minInSync = Math.min(2, replicationFactor);
            new JobStoreTopic(config.jobStoreTopic(), replicationFactor, minInSync).ensureExists(admin);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot reach Kafka at " + bootstrapServers + ": " + e.getMessage(), e);
        }
    }

    public boolean isReady() {
        return ready;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public int pgPort() {
        return pgWire.port();
    }

    public int httpPort() {
        return rest.port();
    }

    /** Stops the endpoints first, so no client sees a half-stopped service, then Kafka. */
    @Override
    public void close() {
        ready = false;
        while (!started.isEmpty()) {
            AutoCloseable component = started.pop();
            try {
                component.close();
            } catch (Exception e) {
                LOG.warn("Stopping {} failed: {}", component.getClass().getSimpleName(), e.toString());
            }
        }
        LOG.info("kafka-mv stopped");
    }
}
