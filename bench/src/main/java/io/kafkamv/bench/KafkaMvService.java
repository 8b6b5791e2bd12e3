package io.kafkamv.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * kafka-mv as a child JVM from {@code ddl-service/target/kafka-mv.jar}: on a broker of its own, in its JVM as the
 * README starts it, or on an external one through {@code --bootstrap-servers}.
 */
public final class KafkaMvService implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Path jar;
    private final Path dataDir;
    private final String bootstrapServers;
    private final List<String> brokerArguments;
    private final Path logDir;
    private final int pgPort;
    private final int httpPort;
    private ChildJvm jvm;

    private KafkaMvService(Path jar, Path dataDir, String bootstrapServers, List<String> brokerArguments, Path logDir)
        throws IOException {
        this.jar = jar;
        this.dataDir = dataDir;
        this.bootstrapServers = bootstrapServers;
        this.brokerArguments = brokerArguments;
        this.logDir = logDir;
        this.pgPort = freePort();
        this.httpPort = freePort();
    }

    /** kafka-mv on the broker at {@code bootstrapServers}. */
    public static KafkaMvService start(Path jar, Path dataDir, String bootstrapServers, Path logDir) throws IOException {
        KafkaMvService service = new KafkaMvService(jar, dataDir, bootstrapServers,
            List.of("--bootstrap-servers", bootstrapServers), logDir);
        service.launch();
        return service;
    }

    /** kafka-mv with the broker it embeds, which the harness reaches at {@link #bootstrapServers()}. */
    public static KafkaMvService startWithEmbeddedBroker(Path jar, Path dataDir, Path logDir) throws IOException {
        String port = String.valueOf(freePort());
        KafkaMvService service = new KafkaMvService(jar, dataDir, "localhost:" + port, List.of("--kafka-port", port),
            logDir);
        service.launch();
        return service;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Starts the service again on the same data dir and ports, after {@link #kill()}. */
    public void launch() throws IOException {
        List<String> arguments = new java.util.ArrayList<>(List.of("-jar", jar.toString(),
            "--data-dir", dataDir.toString(),
            "--pg-port", String.valueOf(pgPort),
            "--http-port", String.valueOf(httpPort)));
        arguments.addAll(brokerArguments);
        jvm = ChildJvm.start(arguments,
            "kafka-mv ready:", logDir.resolve("kafka-mv-" + System.currentTimeMillis() + ".log"), Duration.ofSeconds(90));
    }

    public void kill() throws InterruptedException {
        jvm.kill();
    }

    /** CPU time the service's JVM has used so far. */
    public Duration cpuTime() {
        return jvm.cpuTime();
    }

    /** The service's resident memory: its heap and RocksDB's memory off it. */
    public double residentMiB() {
        return jvm.residentMiB();
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://localhost:" + pgPort + "/dev", "root", "");
    }

    public JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri(path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
    }

    /** The id of the job creating {@code object}, if one is running. */
    public Optional<Long> jobOf(String object) throws IOException, InterruptedException {
        JsonNode jobs = get("/v1/jobs");
        if (jobs != null) {
            for (JsonNode job : jobs.path("jobs")) {
                if (job.path("object").asText().equals(object)) {
                    return Optional.of(job.path("id").asLong());
                }
            }
        }
        return Optional.empty();
    }

    /** The service's Prometheus text, for heap and thread gauges. */
    public String metrics() throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri("/metrics")).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + httpPort + path);
    }

    @Override
    public void close() {
        if (jvm != null) {
            jvm.close();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
