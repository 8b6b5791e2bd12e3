package io.kafkamv.bench.measure;

import com.fasterxml.jackson.databind.JsonNode;
import io.kafkamv.bench.KafkaMvService;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code CREATE MATERIALIZED VIEW} watched from the outside as a user would. In the background: how long the
 * statement took to return, the job's progress every 200 ms, and when the view answered queries. In the foreground:
 * how long the statement took, which is when the view answers.
 */
public record ViewCreation(String view, long jobId, double createMillis, double visibleSeconds,
                           List<ProgressSample> samples) {

    private static final long SAMPLE_EVERY_MS = 200;

    public static ViewCreation create(KafkaMvService service, String view, String query, Duration timeout)
        throws SQLException, IOException, InterruptedException {
        long start;
        long returned;
        try (Connection connection = service.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET BACKGROUND_DDL = true");
            start = System.nanoTime();
            statement.execute("CREATE MATERIALIZED VIEW " + view + " AS " + query);
            returned = System.nanoTime();
        }
        long jobId = service.jobOf(view).orElse(-1L);
        List<ProgressSample> samples = new ArrayList<>();
        long deadline = start + timeout.toNanos();
        long nextSample = returned;
        while (!queryable(service, view)) {
            long now = System.nanoTime();
            if (now > deadline) {
                throw new IllegalStateException("view " + view + " was not visible within " + timeout);
            }
            if (now >= nextSample && jobId >= 0) {
                JsonNode job = service.get("/v1/jobs/" + jobId);
                if (job != null) {
                    samples.add(new ProgressSample((now - start) / 1_000_000, job.path("progress").asDouble()));
                }
                nextSample = now + SAMPLE_EVERY_MS * 1_000_000;
            }
            Thread.sleep(20);
        }
        double visible = (System.nanoTime() - start) / 1e9;
        return new ViewCreation(view, jobId, (returned - start) / 1e6, visible, List.copyOf(samples));
    }

    /** A foreground CREATE timed by its client, as a script or a migration tool runs one. */
    public static ViewCreation foreground(KafkaMvService service, String view, String query, Duration timeout)
        throws SQLException, IOException, InterruptedException {
        long start;
        long returned;
        try (Connection connection = service.connect(); Statement statement = connection.createStatement()) {
            statement.setQueryTimeout((int) timeout.toSeconds());
            start = System.nanoTime();
            statement.execute("CREATE MATERIALIZED VIEW " + view + " AS " + query);
            returned = System.nanoTime();
        }
        if (!queryable(service, view)) {
            throw new IllegalStateException("view " + view + " did not answer when its foreground CREATE returned");
        }
        double seconds = (returned - start) / 1e9;
        return new ViewCreation(view, -1, seconds * 1000, seconds, List.of());
    }

    /**
     * Drops the view and waits until the instance no longer runs its job: the cleanup of a dropped view (closing its
     * Kafka Streams instance, deleting its topics) would otherwise take CPU from whatever is measured next.
     */
    public static void drop(KafkaMvService service, String view) throws SQLException, IOException, InterruptedException {
        try (Connection connection = service.connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP MATERIALIZED VIEW IF EXISTS " + view + " CASCADE");
        }
        String running = "kafkamv_view_stream_threads{";
        String object = "object=\"" + view + "\"";
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (service.metrics().lines().anyMatch(line -> line.startsWith(running) && line.contains(object))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the job of dropped view " + view + " still runs after 60 s");
            }
            Thread.sleep(50);
        }
    }

    private static boolean queryable(KafkaMvService service, String view) throws IOException, InterruptedException {
        return service.get("/v1/views/" + view + "/rows?limit=1") != null;
    }
}
