package io.kafkamv.bench.measure;

import io.kafkamv.bench.KafkaMvService;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Batch SELECTs over a created view of every event, and an INSERT of generated rows, timed by the client as a user
 * would. Each query runs once unmeasured, then {@value #RUNS} times: the median time, and the rows scanned per second
 * of the service's CPU over those runs, which is the rate per core whatever number of threads a query uses (it
 * counts the service's background work of the time too, so it errs low).
 */
public final class BatchQueries {

    /** One query: its median time and its scan rate per CPU second. */
    public record Scan(String title, String sql, double medianMillis, double rowsPerCpuSecond) {
    }

    /**
     * @param firstInsertSeconds the first INSERT of the service's life, which JIT-compiles the write path as it goes
     * @param insertSeconds the median of the {@value #INSERTS} after it
     */
    public record Result(long viewRows, List<Scan> scans, long insertedRows, double firstInsertSeconds,
                         double insertSeconds) {
    }

    private static final String VIEW = "bench_scan";
    private static final String TABLE = "bench_insert";
    private static final int RUNS = 5;
    private static final int INSERTS = 3;

    private BatchQueries() {
    }

    /**
     * @param events the source of every event, whose ids are 0, 1, ...: the view holds the first {@code rows} of them,
     *               however many more the topic has (a full run has grown it to 10M by now)
     */
    public static Result measure(KafkaMvService service, String events, long rows, long insertRows) throws Exception {
        ViewCreation.create(service, VIEW, "SELECT id, g, v FROM " + events + " WHERE id < " + rows, Duration.ofMinutes(10));
        List<Scan> scans = new ArrayList<>();
        try (Connection connection = service.connect(); Statement statement = connection.createStatement()) {
            long counted = single(statement, "SELECT count(*) FROM " + VIEW);
            if (counted != rows) {
                throw new IllegalStateException("the view holds " + counted + " rows, not the " + rows + " of its source");
            }
            scans.add(scan(service, statement, rows, "count", "SELECT count(*) FROM " + VIEW));
            scans.add(scan(service, statement, rows, "sum", "SELECT sum(v) FROM " + VIEW));
            // One row in a thousand: g = 7 holds the ids ending in 007, whose v is 7.
            scans.add(scan(service, statement, rows, "filter", "SELECT id, v FROM " + VIEW + " WHERE g = 7 AND v = 7"));
        }
        ViewCreation.drop(service, VIEW);
        double first = insert(service, TABLE + "_first", insertRows);
        double[] inserts = new double[INSERTS];
        for (int i = 0; i < INSERTS; i++) {
            inserts[i] = insert(service, TABLE + "_" + i, insertRows);
        }
        Arrays.sort(inserts);
        return new Result(rows, List.copyOf(scans), insertRows, first, inserts[INSERTS / 2]);
    }

    private static Scan scan(KafkaMvService service, Statement statement, long rows, String title, String sql)
        throws SQLException {
        run(statement, sql);
        double[] millis = new double[RUNS];
        Duration cpuBefore = service.cpuTime();
        for (int i = 0; i < RUNS; i++) {
            long start = System.nanoTime();
            run(statement, sql);
            millis[i] = (System.nanoTime() - start) / 1e6;
        }
        double cpuSeconds = service.cpuTime().minus(cpuBefore).toNanos() / 1e9;
        Arrays.sort(millis);
        return new Scan(title, sql, millis[RUNS / 2], rows * (double) RUNS / cpuSeconds);
    }

    /** Runs a query and reads its whole result, as a client does. */
    private static void run(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                result.getObject(1);
            }
        }
    }

    private static long single(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    /** Seconds until an INSERT of {@code rows} generated rows into a new table returns, having inserted them all. */
    private static double insert(KafkaMvService service, String table, long rows) throws SQLException {
        try (Connection connection = service.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY)");
            long start = System.nanoTime();
            int inserted = statement.executeUpdate("INSERT INTO " + table + " SELECT generate_series(1, " + rows + ")");
            double seconds = (System.nanoTime() - start) / 1e9;
            if (inserted != rows) {
                throw new IllegalStateException("INSERT said " + inserted + " rows, not " + rows);
            }
            statement.execute("DROP TABLE " + table);
            return seconds;
        }
    }
}
