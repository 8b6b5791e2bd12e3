package io.kafkamv.it.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fifty sessions at once for a while, each a random mix of inserts, updates, lookups, scans, session
 * variables, expected errors and (some of them) view DDL. Nothing fails that should not, the views
 * stay exact, and afterwards no connection, session or thread is left over. {@code -Dload.seconds}
 * sets the length (45 s by default; a few minutes for a soak).
 */
class MixedLoadIT {

    private static final int SESSIONS = 50;
    private static final int SEED_ROWS = 10_000;
    private static final Pattern GAUGE = Pattern.compile("(?m)^(\\w+)(?:\\{[^}]*})? (\\S+)$");

    @TempDir
    Path workDir;

    @Test
    void fiftySessionsOfMixedWorkLeaveExactViewsAndNothingOpenBehind() throws Exception {
        Duration length = Duration.ofSeconds(Long.getLong("load.seconds", 45));
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            String url = "jdbc:postgresql://localhost:" + service.pgPort() + "/dev";
            try (Connection setup = DriverManager.getConnection(url, "root", ""); Statement statement = setup.createStatement()) {
                statement.execute("CREATE TABLE items (id BIGINT PRIMARY KEY, grp INT, v BIGINT)");
                statement.execute("INSERT INTO items SELECT generate_series, generate_series % 100, 1 FROM generate_series(1, "
                    + SEED_ROWS + ")");
                statement.execute("CREATE MATERIALIZED VIEW totals AS SELECT grp, count(*) AS n, sum(v) AS s FROM items GROUP BY grp");
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> gauge(service, "kafkamv_pgwire_connections") == 0);
            double threadsBefore = gauge(service, "jvm_threads_live_threads");

            ExecutorService pool = Executors.newFixedThreadPool(SESSIONS);
            long deadline = System.nanoTime() + length.toNanos();
            List<Future<long[]>> sessions = new ArrayList<>();
            for (int s = 0; s < SESSIONS; s++) {
                int session = s;
                sessions.add(pool.submit(() -> work(url, session, deadline)));
            }
            long inserted = 0;
            long updates = 0;
            long statements = 0;
            for (Future<long[]> session : sessions) {
                long[] counts = session.get();
                inserted += counts[0];
                updates += counts[1];
                statements += counts[2];
            }
            pool.shutdown();
            System.out.printf("mixed load: %d sessions, %d statements in %s, %d inserts, %d updates%n",
                SESSIONS, statements, length, inserted, updates);

            long rows = SEED_ROWS + inserted;
            long sum = SEED_ROWS + inserted + updates;
            try (Connection check = DriverManager.getConnection(url, "root", "")) {
                await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500))
                    .until(() -> answer(check, "SELECT sum(n) || ',' || sum(s) FROM totals"), (rows + "," + sum)::equals);
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(gauge(service, "kafkamv_pgwire_connections")).isZero();
                assertThat(gauge(service, "kafkamv_pgwire_sessions")).isZero();
                assertThat(gauge(service, "jvm_threads_live_threads")).isLessThanOrEqualTo(threadsBefore + 5);
            });
        }
    }

    /** One session's loop; returns {inserts, updates, statements}. Any error but the expected one fails it. */
    private static long[] work(String url, int session, long deadline) throws SQLException {
        Random random = new Random(session);
        long inserts = 0;
        long updates = 0;
        long statements = 0;
        long firstId = 1_000_000L * (session + 1);
        try (Connection connection = DriverManager.getConnection(url, "root", "");
             Statement statement = connection.createStatement();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO items VALUES (?, ?, 1)");
             PreparedStatement update = connection.prepareStatement("UPDATE items SET v = 2 WHERE id = ?");
             PreparedStatement lookup = connection.prepareStatement("SELECT n FROM totals WHERE grp = ?")) {
            if (session % 10 == 0) {
                String view = "mine_" + session;
                statement.execute("CREATE MATERIALIZED VIEW " + view + " AS SELECT grp, max(v) AS top FROM items "
                    + "WHERE grp = " + session + " GROUP BY grp");
                assertThat(answer(connection, "SELECT count(*) FROM " + view)).isEqualTo("1");
                statement.execute("DROP MATERIALIZED VIEW " + view);
                statements += 3;
            }
            while (System.nanoTime() < deadline) {
                statements++;
                switch (random.nextInt(10)) {
                    case 0, 1, 2, 3 -> {
                        insert.setLong(1, firstId + inserts);
                        insert.setInt(2, random.nextInt(100));
                        insert.executeUpdate();
                        inserts++;
                    }
                    case 4 -> {
                        // Each row is updated once, to an absolute value, so the expected sum does not hang on
                        // which of two quick updates of one row saw the other. A row not visible yet is tried later.
                        if (updates < inserts) {
                            update.setLong(1, firstId + updates);
                            updates += update.executeUpdate();
                        }
                    }
                    case 5, 6 -> {
                        lookup.setInt(1, random.nextInt(100));
                        try (ResultSet rows = lookup.executeQuery()) {
                            assertThat(rows.next()).isTrue();
                        }
                    }
                    case 7 -> assertThat(Integer.parseInt(answer(connection, "SELECT count(*) FROM totals"))).isEqualTo(100);
                    case 8 -> {
                        statement.execute("SET application_name = 'load-" + session + "'");
                        assertThat(answer(connection, "SHOW application_name")).isEqualTo("load-" + session);
                    }
                    default -> {
                        try {
                            answer(connection, "SELECT * FROM nowhere_" + session);
                            throw new AssertionError("a query of a missing relation succeeded");
                        } catch (SQLException expected) {
                            assertThat(expected.getSQLState()).isEqualTo("42P01");
                        }
                    }
                }
            }
        }
        return new long[] {inserts, updates, statements};
    }

    private static String answer(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getString(1);
        }
    }

    private static double gauge(ServiceProcess service, String name) throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + service.httpPort() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        Matcher matcher = GAUGE.matcher(metrics);
        while (matcher.find()) {
            if (matcher.group(1).equals(name)) {
                return Double.parseDouble(matcher.group(2));
            }
        }
        throw new AssertionError("no " + name + " in /metrics");
    }
}
