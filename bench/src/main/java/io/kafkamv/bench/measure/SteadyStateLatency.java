package io.kafkamv.bench.measure;

import io.kafkamv.bench.KafkaMvService;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * With a view running, one connection inserts rows at a fixed rate while another looks each one up in
 * the view by its key until it is there: the time from sending the INSERT to seeing the row, as a
 * client would. The writer keeps its rate whatever the latency is: an earlier version waited for each
 * row before inserting the next, so at 200 ms a row it wrote 5 rows a second, not the 50 it said.
 */
public final class SteadyStateLatency {

    public record Result(int ratePerSecond, List<Double> latenciesMillis) {

        public double percentile(double p) {
            List<Double> sorted = latenciesMillis.stream().sorted().toList();
            return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100 * sorted.size()) - 1));
        }
    }

    private static final Duration ROW_TIMEOUT = Duration.ofSeconds(30);
    /** Between two lookups of a row not visible yet: fine enough for latencies of tens of milliseconds. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private SteadyStateLatency() {
    }

    public static Result measure(KafkaMvService service, int ratePerSecond, Duration duration) throws Exception {
        try (Connection writer = service.connect(); Connection reader = service.connect();
             Statement ddl = reader.createStatement()) {
            ddl.execute("CREATE TABLE bench_latency (id BIGINT PRIMARY KEY, sent BIGINT)");
            ddl.execute("CREATE MATERIALIZED VIEW bench_latency_view AS SELECT id, sent FROM bench_latency");
            int rows = (int) (duration.toSeconds() * ratePerSecond);
            long[] sentAt = new long[rows];
            AtomicInteger written = new AtomicInteger();
            ExecutorService writing = Executors.newSingleThreadExecutor();
            Future<?> inserts = writing.submit(() -> insertAtRate(writer, ratePerSecond, sentAt, written));
            List<Double> latencies = new ArrayList<>();
            try (PreparedStatement lookup = reader.prepareStatement("SELECT sent FROM bench_latency_view WHERE id = ?")) {
                for (int id = 0; id < rows; id++) {
                    while (written.get() <= id) {
                        if (inserts.isDone()) {
                            inserts.get();
                        }
                        LockSupport.parkNanos(POLL_NANOS);
                    }
                    lookup.setLong(1, id);
                    while (!found(lookup)) {
                        if (System.nanoTime() - sentAt[id] > ROW_TIMEOUT.toNanos()) {
                            throw new IllegalStateException("row " + id + " was not visible within " + ROW_TIMEOUT);
                        }
                        LockSupport.parkNanos(POLL_NANOS);
                    }
                    latencies.add((System.nanoTime() - sentAt[id]) / 1e6);
                }
                inserts.get();
            } finally {
                writing.shutdownNow();
            }
            ddl.execute("DROP MATERIALIZED VIEW bench_latency_view");
            ddl.execute("DROP TABLE bench_latency");
            return new Result(ratePerSecond, List.copyOf(latencies));
        }
    }

    /** Inserts row i at start + i periods, notes when it was sent, and then counts it written. */
    private static Void insertAtRate(Connection writer, int ratePerSecond, long[] sentAt, AtomicInteger written)
        throws Exception {
        try (PreparedStatement insert = writer.prepareStatement("INSERT INTO bench_latency VALUES (?, ?)")) {
            long period = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
            long start = System.nanoTime();
            for (int id = 0; id < sentAt.length; id++) {
                long wait = start + id * period - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                sentAt[id] = System.nanoTime();
                insert.setLong(1, id);
                insert.setLong(2, sentAt[id]);
                insert.executeUpdate();
                written.set(id + 1);
            }
        }
        return null;
    }

    private static boolean found(PreparedStatement lookup) throws java.sql.SQLException {
        try (ResultSet rows = lookup.executeQuery()) {
            return rows.next();
        }
    }
}
