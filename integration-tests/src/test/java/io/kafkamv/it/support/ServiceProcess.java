package io.kafkamv.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * kafka-mv running as a child JVM from {@code ddl-service/target/kafka-mv.jar}, exactly as
 * {@code bin/kafka-mv} runs it, so tests can stop it with SIGTERM or kill it with SIGKILL.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final java.util.Map<Path, Integer> KAFKA_PORTS = new java.util.concurrent.ConcurrentHashMap<>();

    private final Process process;
    private final CompletableFuture<String> readyLine = new CompletableFuture<>();
    private final int pgPort;
    private final int httpPort;
    private final int kafkaPort;
    private final Path log;

    private ServiceProcess(Process process, int pgPort, int httpPort, int kafkaPort, Path log) {
        this.process = process;
        this.pgPort = pgPort;
        this.httpPort = httpPort;
        this.kafkaPort = kafkaPort;
        this.log = log;
        Thread reader = new Thread(this::watchStdout, "service-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** A broker outside the service, where a Maven profile installs one (Testcontainers); none by default. */
    private static final java.util.Optional<ExternalKafka> EXTERNAL_KAFKA = ExternalKafka.installed();

    /**
     * Starts the service on free ports with its data in {@code dataDir} and waits until it is ready. A start on
     * a data dir used before brings its embedded broker back on the same port, as a real deployment does: a
     * broker back on another port has its transaction coordinator send markers to the old address first, and
     * a restart after kill -9 was seen to stall with transactions left open (JobControlIT in CI).
     */
    public static ServiceProcess start(Path dataDir, String... extraArgs) throws IOException {
        return startWithMaxHeap(dataDir, "1g", extraArgs);
    }

    /** As {@link #start}, with the JVM's {@code -Xmx} given, for tests of what a small heap must survive. */
    public static ServiceProcess startWithMaxHeap(Path dataDir, String maxHeap, String... extraArgs) throws IOException {
        int pgPort = FreePorts.next();
        int httpPort = FreePorts.next();
        int kafkaPort = KAFKA_PORTS.computeIfAbsent(dataDir.toAbsolutePath().normalize(), dir -> FreePorts.next());
        Path javaBinary = Paths.get(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(javaBinary.toString(), "-Xmx" + maxHeap));
        command.addAll(ClassDataArchive.LOG_TO_STDERR);
        command.addAll(ClassDataArchive.options(javaBinary, jar()));
        command.addAll(List.of(
            "-jar", jar().toString(),
            "--data-dir", dataDir.toString(),
            "--pg-port", String.valueOf(pgPort),
            "--http-port", String.valueOf(httpPort),
            "--kafka-port", String.valueOf(kafkaPort)));
        command.addAll(List.of(extraArgs));
        if (command.stream().noneMatch(argument -> argument.startsWith("--bootstrap-servers"))) {
            EXTERNAL_KAFKA.ifPresent(kafka -> command.add("--bootstrap-servers=" + kafka.bootstrapServers(dataDir)));
        }
        // Logs outlive the test's temporary data dir, so a failure in CI can be read afterwards.
        Path logs = Paths.get("target", "service-logs");
        java.nio.file.Files.createDirectories(logs);
        Path log = logs.resolve(dataDir.getFileName() + "-" + System.currentTimeMillis() + "-" + System.nanoTime() % 10000
            + "-fork" + System.getProperty("kafkamv.it.fork", "1") + ".log").toAbsolutePath();
        Process process = new ProcessBuilder(command)
            .redirectError(log.toFile())
            .start();
        ServiceProcess service = new ServiceProcess(process, pgPort, httpPort, kafkaPort, log);
        ServiceLogsOnFailure.started(service);
        service.awaitReady(Duration.ofSeconds(90));
        return service;
    }

    private static Path jar() {
        String path = System.getProperty("kafkamv.jar");
        if (path == null) {
            throw new IllegalStateException("System property kafkamv.jar is not set; run through Maven (failsafe)");
        }
        return Paths.get(path).toAbsolutePath().normalize();
    }

    public String readyLine() {
        return readyLine.getNow(null);
    }

    public int pgPort() {
        return pgPort;
    }

    public int httpPort() {
        return httpPort;
    }

    /** The embedded broker's address, for producing to and reading from it directly. */
    public String bootstrapServers() {
        return "localhost:" + kafkaPort;
    }

    public long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    public Path log() {
        return log;
    }

    /** SIGTERM, as Ctrl-C or a Kubernetes stop would send; returns the exit code. */
    public int stop(Duration timeout) throws InterruptedException, TimeoutException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new TimeoutException("kafka-mv did not stop within " + timeout + " after SIGTERM");
        }
        return process.exitValue();
    }

    /** SIGKILL: the process gets no chance to clean up. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void awaitReady(Duration timeout) throws IOException {
        try {
            readyLine.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("Interrupted while kafka-mv started", e);
        } catch (Exception e) {
            process.destroyForcibly();
            ServiceLogsOnFailure.keep("starting kafka-mv", e, List.of(log));
            throw new IOException("kafka-mv did not become ready within " + timeout + "; its log is " + log, e);
        }
    }

    private void watchStdout() {
        try (BufferedReader reader = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("kafka-mv ready:")) {
                    readyLine.complete(line);
                }
            }
            readyLine.completeExceptionally(new IOException("kafka-mv exited before it was ready"));
        } catch (IOException e) {
            readyLine.completeExceptionally(e);
        }
    }
}
