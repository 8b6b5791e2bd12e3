package io.kafkamv.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The real {@code psql} binary, run against a kafka-mv pgwire port. */
public final class Psql {

    /** What one psql run printed and how it exited. */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    private final int port;

    public Psql(int port) {
        this.port = port;
    }

    /** Runs {@code psql -c sql} without a .psqlrc, exactly as a user would type it. */
    public Result run(String sql, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("psql", "-X", "-h", "localhost", "-p", String.valueOf(port),
            "-U", "root", "-d", "dev", "-v", "ON_ERROR_STOP=1"));
        command.addAll(List.of(options));
        command.addAll(List.of("-c", sql));
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("psql did not finish within 60 s: " + sql);
        }
        return new Result(process.exitValue(), stdout.join(), stderr.join());
    }

    private static String read(java.io.InputStream stream) {
        try {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
