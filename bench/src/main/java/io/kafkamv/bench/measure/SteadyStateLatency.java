package io.kafkamv.bench.measure;

import io.kafkamv.bench.KafkaMvService;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * With a view running, connections insert rows at a fixed rate while others look each one up in the view by
 * its key until it is there: the time from sending the INSERT to seeing the row, as a client would. The writers
 * keep their rate whatever the latency is: an earlier version waited for each row before inserting the next, so
 * at 200 ms a row it wrote 5 rows a second, not the 50 it said. One connection keeps up with about
 * {@value #ROWS_PER_CONNECTION} statements a second, a round trip each, so higher rates get more writers (row i
 * is written by writer i mod n, at its time) and as many readers.
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
    private static final int ROWS_PER_CONNECTION = 250;

    private SteadyStateLatency() {
    }

    public static Result measure(KafkaMvService service, int ratePerSecond, Duration duration) throws Exception {
        int connections = Math.max(1, (ratePerSecond + ROWS_PER_CONNECTION - 1) / ROWS_PER_CONNECTION);
        try (Connection setup = service.connect(); Statement ddl = setup.createStatement()) {
            ddl.execute("CREATE TABLE bench_latency (id BIGINT PRIMARY KEY, sent BIGINT)");
            ddl.execute("CREATE MATERIALIZED VIEW bench_latency_view AS SELECT id, sent FROM bench_latency");
            int rows = (int) (duration.toSeconds() * ratePerSecond);
            Rows written = new Rows(rows);
            ExecutorService pool = Executors.newFixedThreadPool(2 * connections);
            List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
            try {
                long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
                long period = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
                List<Future<?>> work = new ArrayList<>();
                for (int i = 0; i < connections; i++) {
                    int first = i;
                    work.add(pool.submit(() -> insertAtRate(service, written, first, connections, start, period)));
                }
                for (int i = 0; i < connections; i++) {
                    int first = i;
                    work.add(pool.submit(() -> lookUp(service, written, first, connections, latencies)));
                }
                for (Future<?> future : work) {
                    future.get();
                }
            } finally {
                pool.shutdownNow();
            }
            ddl.execute("DROP MATERIALIZED VIEW bench_latency_view");
            ddl.execute("DROP TABLE bench_latency");
            return new Result(ratePerSecond, List.copyOf(latencies));
        }
    }

    /** When each row was sent, and whether its INSERT has returned; a writer's failure, for the readers to stop on. */
    private static final class Rows {
        final AtomicLongArray sentAt;
        final AtomicIntegerArray done;
        volatile Exception failed;

        Rows(int rows) {
            sentAt = new AtomicLongArray(rows);
            done = new AtomicIntegerArray(rows);
        }

        int count() {
            return sentAt.length();
        }
    }

    /** Inserts rows first, first + step, ... each at start + id periods, notes when it was sent, then marks it done. */
    private static Void insertAtRate(KafkaMvService service, Rows rows, int first, int step, long start, long period)
        throws Exception {
        try (Connection writer = service.connect();
             PreparedStatement insert = writer.prepareStatement("INSERT INTO bench_latency VALUES (?, ?)")) {
            for (int id = first; id < rows.count(); id += step) {
                long wait = start + id * period - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                long sent = System.nanoTime();
                rows.sentAt.set(id, sent);
                insert.setLong(1, id);
                insert.setLong(2, sent);
                insert.executeUpdate();
                rows.done.set(id, 1);
            }
        } catch (Exception e) {
            rows.failed = e;
            throw e;
        }
        return null;
    }

    /** Looks rows first, first + step, ... up once their INSERT has returned, until each is in the view. */
    private static Void lookUp(KafkaMvService service, Rows rows, int first, int step, List<Double> latencies)
        throws Exception {
        try (Connection reader = service.connect();
             PreparedStatement lookup = reader.prepareStatement("SELECT sent FROM bench_latency_view WHERE id = ?")) {
            for (int id = first; id < rows.count(); id += step) {
                while (rows.done.get(id) == 0) {
                    if (rows.failed != null) {
                        throw new IllegalStateException("a writer failed", rows.failed);
                    }
                    LockSupport.parkNanos(POLL_NANOS);
                }
                lookup.setLong(1, id);
                while (!found(lookup)) {
                    if (System.nanoTime() - rows.sentAt.get(id) > ROW_TIMEOUT.toNanos()) {
                        throw new IllegalStateException("row " + id + " was not visible within " + ROW_TIMEOUT);
                    }
                    LockSupport.parkNanos(POLL_NANOS);
                }
                latencies.add((System.nanoTime() - rows.sentAt.get(id)) / 1e6);
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
