package io.kafkamv.it.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A view over an input that is written all the time: its exchanges' ends move on at every look. A GROUP BY view
 * and a join created in the background still become visible, FLUSH still returns, each in bounded time, and once
 * the writes stop the views hold exactly what their inputs say.
 */
class BusyInputIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void viewsOverAnInputWrittenAllTheTimeBecomeVisibleAndFlushReturns() throws Exception {
        try (Connection setup = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Statement statement = setup.createStatement()) {
            statement.execute("CREATE TABLE busy (id BIGINT PRIMARY KEY, g INT)");
            statement.execute("CREATE TABLE names (g INT PRIMARY KEY, name TEXT)");
            statement.execute("INSERT INTO names SELECT x, 'group ' || x FROM generate_series(0, 9) AS s(x)");
            statement.execute("INSERT INTO busy SELECT x, x % 10 FROM generate_series(1, 20000) AS s(x)");
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Future<Long> written = writer.submit(() -> {
            long next = 20_001;
            try (Connection connection = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
                 Statement insert = connection.createStatement()) {
                while (writing.get()) {
                    insert.execute("INSERT INTO busy SELECT x, x % 10 FROM generate_series(" + next + ", "
                        + (next + 49) + ") AS s(x)");
                    next += 50;
                }
            }
            return next - 1;
        });
        try (Connection connection = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(180);
            statement.execute("SET BACKGROUND_DDL = true");
            statement.execute("CREATE MATERIALIZED VIEW busy_groups AS SELECT g, count(*) AS n FROM busy GROUP BY g");
            statement.execute("CREATE MATERIALIZED VIEW busy_named AS SELECT b.id, n.name FROM busy b JOIN names n ON b.g = n.g");
            long started = System.nanoTime();
            statement.execute("WAIT");
            long waited = System.nanoTime() - started;
            statement.execute("FLUSH");
            long flushed = System.nanoTime() - started - waited;
            System.out.printf("busy input: views visible after %d ms, FLUSH took %d ms%n", waited / 1_000_000,
                flushed / 1_000_000);
            assertThat(written.isDone()).as("the writer was still writing").isFalse();

            writing.set(false);
            long last = written.get(1, TimeUnit.MINUTES);
            statement.execute("FLUSH");
            Map<Integer, Long> groups = new HashMap<>();
            try (ResultSet rows = statement.executeQuery("SELECT g, n FROM busy_groups")) {
                while (rows.next()) {
                    groups.put(rows.getInt(1), rows.getLong(2));
                }
            }
            Map<Integer, Long> expected = new HashMap<>();
            for (long id = 1; id <= last; id++) {
                expected.merge((int) (id % 10), 1L, Long::sum);
            }
            assertThat(groups).isEqualTo(expected);
            try (ResultSet count = statement.executeQuery("SELECT count(*) FROM busy_named")) {
                assertThat(count.next()).isTrue();
                assertThat(count.getLong(1)).isEqualTo(last);
            }
        } finally {
            writing.set(false);
            writer.shutdownNow();
        }
    }
}
