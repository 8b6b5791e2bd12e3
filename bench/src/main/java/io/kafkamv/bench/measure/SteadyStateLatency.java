package io.kafkamv.bench.measure;

import io.kafkamv.bench.EventTopics;
import io.kafkamv.bench.Kafka;
import io.kafkamv.bench.KafkaMvService;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * With a view running, rows are written at a fixed rate while connections look some of them up in the view by key
 * until they are there: the time from sending a row to seeing it, as a client would. Rows are written one of two
 * {@link Writes ways}: INSERT statements into a table over pgjdbc, or records sent by a Kafka producer to a source's
 * topic (how the streaming systems quote their latency: a source's rows come from producers, not statements). The
 * INSERT writers keep their rate whatever the latency is: an earlier version waited for each row before inserting
 * the next, so at 200 ms a row it wrote 5 rows a second, not the 50 it said. One connection is given
 * {@value #ROWS_PER_CONNECTION} statements a second, a round trip each, so higher rates get more writers (row i
 * is written by writer i mod n, at its time). Where the service cannot take the rate the writers fall behind: the
 * result says the rate they reached, which the goal is judged at.
 *
 * <p>The lookups are the measurement's own load, and must stay small beside the writes: an earlier version looked up
 * every row, every millisecond until it was there, which at 1,000 rows/s was up to 4,000 queries a second on the
 * service it measured. Now about {@value #SAMPLES_PER_SECOND} rows a second are looked up (every k-th, whatever the
 * rate), every {@value #POLL_MILLIS} ms until there (a latency is at most that late), each by one of
 * {@value #READERS} readers in turn; a reader still waiting for its previous row when the next one's write returns
 * starts late, and the result counts those lookups.
 */
public final class SteadyStateLatency {

    /** How the rows reach the view. */
    public enum Writes {
        /** {@code INSERT INTO t VALUES (?, ?)} over pgjdbc, one statement per row, into a table the view reads. */
        INSERT("INSERT statements"),
        /**
         * JSON records from one Kafka producer (default settings), keyed by their rows' primary keys, into the topic of a
         * source with that primary key; the view re-keys them by the key it reads from each value (a repartition).
         */
        PRODUCER("a Kafka producer"),
        /** The same, into a source that is told its records are keyed by their primary keys ({@code key.is_primary_key}). */
        PRODUCER_KEYED("a Kafka producer, key.is_primary_key");

        private final String title;

        Writes(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    /**
     * @param achievedRate the rows per second the writers sent, which falls short of the rate when they cannot keep up
     * @param writeMillis the looked-up rows' writes until acknowledged (an INSERT's round trip, a record's send until
     *                    the broker acknowledged it), which their latencies include
     * @param lateLookups lookups that began after their row's write returned, their reader busy with an earlier row
     */
    public record Result(Writes writes, int ratePerSecond, double achievedRate, List<Double> latenciesMillis,
                         List<Double> writeMillis, int lateLookups) {

        public double percentile(double p) {
            return percentile(latenciesMillis, p);
        }

        public double writePercentile(double p) {
            return percentile(writeMillis, p);
        }

        /** Whether the goal holds: p99 under 100 ms with the rate reached. */
        public boolean meetsGoal() {
            return achievedRate >= 950 && percentile(99) < 100;
        }

        private static double percentile(List<Double> values, double p) {
            List<Double> sorted = values.stream().sorted().toList();
            return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100 * sorted.size()) - 1));
        }
    }

    /**
     * Rows are written for this long before any is looked up: a new view's first seconds (its second rebalance once
     * its internal topics exist, the first fetches) are its start, not its steady state.
     */
    private static final Duration WARM_UP = Duration.ofSeconds(5);
    private static final Duration ROW_TIMEOUT = Duration.ofSeconds(30);
    private static final int POLL_MILLIS = 5;
    private static final int SAMPLES_PER_SECOND = 25;
    /** Enough that each waits for the row it looks up 400 ms ({@code READERS / SAMPLES_PER_SECOND}) before its next. */
    private static final int READERS = 10;
    private static final int ROWS_PER_CONNECTION = 100;

    private SteadyStateLatency() {
    }

    public static Result measure(KafkaMvService service, Writes writes, int ratePerSecond, Duration duration)
        throws Exception {
        boolean producer = writes != Writes.INSERT;
        int writers = producer ? 1
            : Math.max(1, (ratePerSecond + ROWS_PER_CONNECTION - 1) / ROWS_PER_CONNECTION);
        try (Connection setup = service.connect(); Statement ddl = setup.createStatement()) {
            // A source's topic outlives DROP SOURCE: each run writes a new one, not the rows an earlier run left.
            String relation = producer ? "bench_latency_source_" + System.currentTimeMillis()
                : "bench_latency";
            if (producer) {
                new EventTopics(service.bootstrapServers()).create(relation);
                ddl.execute("CREATE SOURCE " + relation + " (id BIGINT, sent BIGINT, PRIMARY KEY (id)) WITH (connector "
                    + "= 'kafka', topic = '" + relation + "', format = 'json'"
                    + (writes == Writes.PRODUCER_KEYED ? ", key.is_primary_key = 'true'" : "") + ")");
            } else {
                ddl.execute("CREATE TABLE " + relation + " (id BIGINT PRIMARY KEY, sent BIGINT)");
            }
            ddl.execute("CREATE MATERIALIZED VIEW bench_latency_view AS SELECT id, sent FROM " + relation);
            int warmUpRows = (int) (WARM_UP.toSeconds() * ratePerSecond);
            int rows = warmUpRows + (int) (duration.toSeconds() * ratePerSecond);
            Rows written = new Rows(rows);
            int step = Math.max(1, ratePerSecond / SAMPLES_PER_SECOND);
            ExecutorService pool = Executors.newFixedThreadPool(writers + READERS);
            List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
            List<Double> writeTimes = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger late = new AtomicInteger();
            long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            long period = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
            try {
                List<Future<?>> work = new ArrayList<>();
                for (int i = 0; i < writers; i++) {
                    int first = i;
                    work.add(pool.submit(() -> producer
                        ? produceAtRate(service.bootstrapServers(), relation, written, start, period)
                        : insertAtRate(service, written, first, writers, start, period)));
                }
                for (int i = 0; i < READERS; i++) {
                    int reader = i;
                    work.add(pool.submit(() -> lookUp(service, written, sample -> sample % READERS == reader
                        // Sample j is row j * step + j mod writers: every writer's rows, not only the first's.
                        ? warmUpRows + sample * step + sample % writers : -1, latencies, writeTimes, late)));
                }
                for (Future<?> future : work) {
                    future.get();
                }
                if (written.failed != null) {
                    throw new IllegalStateException("a row could not be written", written.failed);
                }
            } finally {
                pool.shutdownNow();
            }
            ddl.execute("DROP MATERIALIZED VIEW bench_latency_view");
            ddl.execute((producer ? "DROP SOURCE " : "DROP TABLE ") + relation);
            // From when the first measured row was due, not sent: writers behind after the warm-up that catch up
            // would otherwise seem faster than the rate.
            long lastSent = 0;
            for (int row = warmUpRows; row < rows; row++) {
                lastSent = Math.max(lastSent, written.sentAt.get(row));
            }
            double seconds = (lastSent - (start + warmUpRows * period)) / 1e9;
            return new Result(writes, ratePerSecond, (rows - 1 - warmUpRows) / seconds, List.copyOf(latencies),
                List.copyOf(writeTimes), late.get());
        }
    }

    /** When each row was sent, and whether its write has returned; a writer's failure, for the readers to stop on. */
    private static final class Rows {
        final AtomicLongArray sentAt;
        /** When each write returned; 0 until then. */
        final AtomicLongArray returnedAt;
        volatile Exception failed;

        Rows(int rows) {
            sentAt = new AtomicLongArray(rows);
            returnedAt = new AtomicLongArray(rows);
        }

        int count() {
            return sentAt.length();
        }
    }

    /** Inserts rows first, first + step, ... each at start + id periods, notes when it was sent, then notes when it returned. */
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
                rows.returnedAt.set(id, System.nanoTime());
            }
        } catch (Exception e) {
            rows.failed = e;
            throw e;
        }
        return null;
    }

    /**
     * Sends row id at start + id periods as {@code {"id": id, "sent": nanos}}, keyed by {@code {"id": id}}, and notes
     * when the broker acknowledged it.
     */
    private static Void produceAtRate(String bootstrapServers, String topic, Rows rows, long start, long period)
        throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Kafka.properties(bootstrapServers),
            new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int row = 0; row < rows.count(); row++) {
                long wait = start + row * period - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                int id = row;
                long sent = System.nanoTime();
                rows.sentAt.set(id, sent);
                producer.send(new ProducerRecord<>(topic, json("{\"id\":" + id + "}"),
                    json("{\"id\":" + id + ",\"sent\":" + sent + "}")), (metadata, failure) -> {
                        if (failure != null) {
                            rows.failed = failure;
                        } else {
                            rows.returnedAt.set(id, System.nanoTime());
                        }
                    });
            }
            producer.flush();
        } catch (Exception e) {
            rows.failed = e;
            throw e;
        }
        return null;
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Looks up the rows {@code samples} gives for the samples 0, 1, ... (-1 for those another reader takes), each once
     * its write has returned, until it is in the view.
     */
    private static Void lookUp(KafkaMvService service, Rows rows, java.util.function.IntUnaryOperator samples,
                               List<Double> latencies, List<Double> writeTimes, AtomicInteger late) throws Exception {
        try (Connection reader = service.connect();
             PreparedStatement lookup = reader.prepareStatement("SELECT sent FROM bench_latency_view WHERE id = ?")) {
            for (int sample = 0, id = samples.applyAsInt(0); id < rows.count(); id = samples.applyAsInt(++sample)) {
                if (id < 0) {
                    continue;
                }
                if (rows.returnedAt.get(id) != 0) {
                    late.incrementAndGet();
                }
                while (rows.returnedAt.get(id) == 0) {
                    if (rows.failed != null) {
                        throw new IllegalStateException("a writer failed", rows.failed);
                    }
                    // Waiting for the write's return, not polling the service: a millisecond late at most.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
                lookup.setLong(1, id);
                while (!found(lookup)) {
                    if (System.nanoTime() - rows.sentAt.get(id) > ROW_TIMEOUT.toNanos()) {
                        throw new IllegalStateException("row " + id + " was not visible within " + ROW_TIMEOUT);
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS));
                }
                latencies.add((System.nanoTime() - rows.sentAt.get(id)) / 1e6);
                writeTimes.add((rows.returnedAt.get(id) - rows.sentAt.get(id)) / 1e6);
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
