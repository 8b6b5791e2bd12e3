package io.kafkamv.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fifty pgjdbc sessions at once, each with its own session variables and queries. Also records
 * the latency of point lookups and of a 10,000-row scan; it prints them for the issue note and
 * asserts only correctness (timing belongs to bench/).
 */
class ConcurrentSessionsIT {

    private static final int SESSIONS = 50;

    @TempDir
    Path workDir;

    @Test
    void fiftySessionsAtOnceEachGetTheirOwnAnswers() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            String url = "jdbc:postgresql://localhost:" + service.pgPort() + "/dev";
            try (Connection setup = DriverManager.getConnection(url, "root", ""); Statement statement = setup.createStatement()) {
                statement.execute("CREATE TABLE items (id INT PRIMARY KEY, grp INT, v BIGINT)");
                statement.execute("INSERT INTO items SELECT generate_series, generate_series % 100, generate_series * 2 "
                    + "FROM generate_series(1, 10000)");
                statement.execute("CREATE MATERIALIZED VIEW by_id AS SELECT id, grp, v FROM items");
            }

            ExecutorService pool = Executors.newFixedThreadPool(SESSIONS);
            List<Long> lookupNanos = Collections.synchronizedList(new ArrayList<>());
            List<Long> scanNanos = Collections.synchronizedList(new ArrayList<>());
            List<Future<Integer>> sessions = new ArrayList<>();
            for (int s = 0; s < SESSIONS; s++) {
                int session = s;
                sessions.add(pool.submit(() -> {
                    try (Connection connection = DriverManager.getConnection(url, "root", "");
                         Statement statement = connection.createStatement();
                         PreparedStatement lookup = connection.prepareStatement("SELECT v FROM by_id WHERE id = ?")) {
                        statement.execute("SET application_name = 'session-" + session + "'");
                        int checked = 0;
                        for (int i = 1; i <= 10; i++) {
                            int id = session * 100 + i;
                            long started = System.nanoTime();
                            lookup.setInt(1, id);
                            try (ResultSet rs = lookup.executeQuery()) {
                                rs.next();
                                assertThat(rs.getLong(1)).isEqualTo(id * 2L);
                            }
                            lookupNanos.add(System.nanoTime() - started);
                            checked++;
                        }
                        long started = System.nanoTime();
                        try (ResultSet rs = statement.executeQuery("SELECT id, grp, v FROM by_id")) {
                            int rows = 0;
                            while (rs.next()) {
                                rows++;
                            }
                            assertThat(rows).isEqualTo(10_000);
                        }
                        scanNanos.add(System.nanoTime() - started);
                        try (ResultSet rs = statement.executeQuery("SHOW application_name")) {
                            rs.next();
                            assertThat(rs.getString(1)).isEqualTo("session-" + session);
                        }
                        return checked;
                    }
                }));
            }
            int total = 0;
            for (Future<Integer> session : sessions) {
                total += session.get();
            }
            pool.shutdown();
            assertThat(total).isEqualTo(SESSIONS * 10);
            System.out.printf("point lookups under %d sessions: p50 %.1f ms, p99 %.1f ms; 10,000-row scans: p50 %.1f ms, "
                + "p99 %.1f ms%n", SESSIONS, percentile(lookupNanos, 50), percentile(lookupNanos, 99),
                percentile(scanNanos, 50), percentile(scanNanos, 99));
        }
    }

    private static double percentile(List<Long> nanos, int percentile) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        int index = Math.min(sorted.size() - 1, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1);
        return sorted.get(Math.max(0, index)) / 1e6;
    }
}
