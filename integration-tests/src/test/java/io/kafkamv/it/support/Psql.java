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
    private final String user;
    private final String password;
    private final java.util.Map<String, String> environment;

    public Psql(int port) {
        this(port, "root", null, java.util.Map.of());
    }

    private Psql(int port, String user, String password, java.util.Map<String, String> environment) {
        this.port = port;
        this.user = user;
        this.password = password;
        this.environment = environment;
    }

    /** psql connecting as this user with this password (given as PGPASSWORD, as scripts do). */
    public Psql as(String user, String password) {
        return new Psql(port, user, password, environment);
    }

    /** psql with a libpq environment variable set, e.g. {@code PGSSLMODE}. */
    public Psql with(String variable, String value) {
        java.util.Map<String, String> more = new java.util.HashMap<>(environment);
        more.put(variable, value);
        return new Psql(port, user, password, java.util.Map.copyOf(more));
    }

    /** Runs {@code psql -c sql} without a .psqlrc, exactly as a user would type it. */
    public Result run(String sql, String... options) throws IOException, InterruptedException {
        return session(List.of(sql), options);
    }

    /** Runs several statements in one session ({@code -c} repeated), stopping at the first error. */
    public Result session(List<String> statements, String... options) throws IOException, InterruptedException {
        return await(start(statements, options), statements.toString());
    }

    /** Creates table {@code table(v1 int)} holding 1 to {@code rows}, flushed: the input most job tests start from. */
    public void fillTable(String table, int rows) throws IOException, InterruptedException {
        Result result = session(List.of("CREATE TABLE " + table + "(v1 int)",
            "INSERT INTO " + table + " SELECT * FROM generate_series(1, " + rows + ")", "FLUSH"));
        if (result.exitCode() != 0) {
            throw new AssertionError("filling " + table + " failed: " + result.stderr());
        }
    }

    /** Starts psql without waiting for it, e.g. for a statement that blocks. */
    public Process start(List<String> statements, String... options) throws IOException {
        List<String> command = new ArrayList<>(List.of("psql", "-X", "-h", "localhost", "-p", String.valueOf(port),
            "-U", user, "-d", "dev", "-v", "ON_ERROR_STOP=1", "-w"));
        command.addAll(List.of(options));
        for (String statement : statements) {
            command.addAll(List.of("-c", statement));
        }
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("PGPASSWORD");
        if (password != null) {
            builder.environment().put("PGPASSWORD", password);
        }
        builder.environment().putAll(environment);
        return builder.start();
    }

    /** A single value: the first column of the first row, as psql prints it unaligned. */
    public String value(String sql) throws IOException, InterruptedException {
        Result result = run(sql, "-A", "-t");
        if (result.exitCode() != 0) {
            throw new IOException("psql failed on " + sql + ": " + result.stderr());
        }
        String out = result.stdout().strip();
        int newline = out.indexOf('\n');
        String firstRow = newline < 0 ? out : out.substring(0, newline);
        int bar = firstRow.indexOf('|');
        return bar < 0 ? firstRow : firstRow.substring(0, bar);
    }

    /** Waits for a psql started with {@link #start} and collects what it printed. */
    public static Result await(Process process, String what) throws IOException, InterruptedException {
        process.getOutputStream().close();
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("psql did not finish within 180 s: " + what);
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
