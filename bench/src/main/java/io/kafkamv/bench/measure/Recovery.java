package io.kafkamv.bench.measure;

import com.fasterxml.jackson.databind.JsonNode;
import io.kafkamv.bench.BackfillQuery;
import io.kafkamv.bench.KafkaMvService;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;

/**
 * A background backfill whose service is killed (SIGKILL) once the job passes half way, then started
 * again on the same data dir: where the job resumed, and what the kill cost in time.
 */
public final class Recovery {

    /**
     * @param killedAt    the last progress seen before the kill
     * @param resumedAt   the first progress seen after the restart
     * @param startedOver whether the job became a new generation meanwhile: its state could not be resumed, so it read
     *                    its sources again from the start, while the progress it shows never goes back
     */
    public record Result(long rows, double killedAt, double resumedAt, boolean startedOver, double totalSeconds,
                         double restartSeconds) {

        /**
         * Source records between the last progress seen before the kill and where the restarted job's progress began:
         * what a restart that did not resume from the persisted progress would have to read again. Both are committed
         * progress, so this is about 0 when the restart resumes, and about {@code killedAt * rows} when it starts over.
         * The work a kill discards (records processed since the last commit, at most one commit interval's under
         * exactly once) is not in it: it is never committed, so it shows in no progress.
         */
        public long recordsBehindLastProgress() {
            return Math.max(0, Math.round((killedAt - (startedOver ? 0 : resumedAt)) * rows));
        }
    }

    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private Recovery() {
    }

    public static Result measure(KafkaMvService service, BackfillQuery query, long rows) throws Exception {
        String view = query.viewName() + "_recovery";
        long start = System.nanoTime();
        try (Connection connection = service.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET BACKGROUND_DDL = true");
            statement.execute("CREATE MATERIALIZED VIEW " + view + " AS " + query.sql());
        }
        long job = service.jobOf(view).orElseThrow();
        long deadline = start + TIMEOUT.toNanos();
        double killedAt = 0;
        int generation = 0;
        while (killedAt < 0.5) {
            check(deadline, view);
            JsonNode state = service.get("/v1/jobs/" + job);
            if (state != null) {
                killedAt = state.path("progress").asDouble();
                generation = state.path("generation").asInt();
            }
            Thread.sleep(50);
        }
        service.kill();
        long restart = System.nanoTime();
        service.launch();
        double restartSeconds = (System.nanoTime() - restart) / 1e9;
        double resumedAt = -1;
        while (service.get("/v1/views/" + view + "/rows?limit=1") == null) {
            check(deadline, view);
            if (resumedAt < 0) {
                JsonNode state = service.get("/v1/jobs/" + job);
                resumedAt = state == null ? -1 : state.path("progress").asDouble();
            }
            Thread.sleep(20);
        }
        double total = (System.nanoTime() - start) / 1e9;
        JsonNode finished = service.get("/v1/jobs/" + job);
        boolean startedOver = finished == null || finished.path("generation").asInt() != generation;
        ViewCreation.drop(service, view);
        return new Result(rows, killedAt, Math.max(0, resumedAt), startedOver, total, restartSeconds);
    }

    private static void check(long deadline, String view) {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("view " + view + " was not created within " + TIMEOUT);
        }
    }
}
