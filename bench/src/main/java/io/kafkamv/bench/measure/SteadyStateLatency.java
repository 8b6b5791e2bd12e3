package io.kafkamv.bench.measure;

import io.kafkamv.bench.KafkaMvService;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * With a view running, rows are inserted at a fixed rate and each is looked up in the view by its key
 * until it is there: the time from sending the INSERT to seeing the row, as a client would.
 */
public final class SteadyStateLatency {

    public record Result(int ratePerSecond, List<Double> latenciesMillis) {

        public double percentile(double p) {
            List<Double> sorted = latenciesMillis.stream().sorted().toList();
            return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100 * sorted.size()) - 1));
        }
    }

    private static final Duration ROW_TIMEOUT = Duration.ofSeconds(30);

    private SteadyStateLatency() {
    }

    public static Result measure(KafkaMvService service, int ratePerSecond, Duration duration) throws Exception {
        try (Connection writer = service.connect(); Connection reader = service.connect();
             Statement ddl = writer.createStatement()) {
            ddl.execute("CREATE TABLE bench_latency (id BIGINT PRIMARY KEY, sent BIGINT)");
            ddl.execute("CREATE MATERIALIZED VIEW bench_latency_view AS SELECT id, sent FROM bench_latency");
            List<Double> latencies = new ArrayList<>();
            try (PreparedStatement insert = writer.prepareStatement("INSERT INTO bench_latency VALUES (?, ?)");
                 PreparedStatement lookup = reader.prepareStatement("SELECT sent FROM bench_latency_view WHERE id = ?")) {
                long period = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
                long rows = duration.toSeconds() * ratePerSecond;
                long start = System.nanoTime();
                for (long id = 0; id < rows; id++) {
                    long due = start + id * period;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    long sent = System.nanoTime();
                    insert.setLong(1, id);
                    insert.setLong(2, sent);
                    insert.executeUpdate();
                    lookup.setLong(1, id);
                    while (!found(lookup)) {
                        if (System.nanoTime() - sent > ROW_TIMEOUT.toNanos()) {
                            throw new IllegalStateException("row " + id + " was not visible within " + ROW_TIMEOUT);
                        }
                    }
                    latencies.add((System.nanoTime() - sent) / 1e6);
                }
            }
            ddl.execute("DROP MATERIALIZED VIEW bench_latency_view");
            ddl.execute("DROP TABLE bench_latency");
            return new Result(ratePerSecond, List.copyOf(latencies));
        }
    }

    private static boolean found(PreparedStatement lookup) throws java.sql.SQLException {
        try (ResultSet rows = lookup.executeQuery()) {
            return rows.next();
        }
    }
}
