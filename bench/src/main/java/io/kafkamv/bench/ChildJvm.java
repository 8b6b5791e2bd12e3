package io.kafkamv.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started by the harness with the same heap as every other contender, so that kafka-mv and the
 * baseline run under equal limits. It counts as started when it prints {@code readyPrefix}.
 */
public final class ChildJvm implements AutoCloseable {

    public static final String HEAP = "-Xmx1g";

    private final Process process;
    private final CompletableFuture<String> ready = new CompletableFuture<>();
    private final String readyPrefix;

    private ChildJvm(Process process, String readyPrefix) {
        this.process = process;
        this.readyPrefix = readyPrefix;
        Thread reader = new Thread(this::watchStdout, "child-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code java HEAP <launch...>} with stderr in {@code log}, and waits for the ready line. */
    public static ChildJvm start(List<String> launch, String readyPrefix, Path log, Duration timeout) throws IOException {
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), HEAP));
        command.addAll(launch);
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        ChildJvm child = new ChildJvm(process, readyPrefix);
        try {
            child.ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            child.close();
            throw new IOException(command.get(command.size() - 1) + " did not start within " + timeout + "; see " + log, e);
        }
        return child;
    }

    /** The class path of this harness, for children that run one of its classes. */
    public static String classPath() {
        return System.getProperty("java.class.path");
    }

    public String readyLine() {
        return ready.getNow(null);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** CPU time the JVM has used so far, all its threads together. */
    public Duration cpuTime() {
        return process.info().totalCpuDuration().orElseThrow(
            () -> new IllegalStateException("this system does not tell a process's CPU time"));
    }

    /** The JVM's resident memory, heap and everything off it (RocksDB's), read from /proc; NaN where there is none. */
    public double residentMiB() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc", String.valueOf(process.pid()),
                "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (java.io.IOException | NumberFormatException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }

    /** SIGKILL, as a crash would. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    kill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void watchStdout() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith(readyPrefix)) {
                    ready.complete(line);
                }
            }
            ready.completeExceptionally(new IOException("exited before it was ready"));
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
    }
}
