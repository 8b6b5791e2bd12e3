package io.kafkamv.connectors.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

import io.kafkamv.connectors.format.JsonRowDecoder;
import io.kafkamv.connectors.schema.Column;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a PostgreSQL table equal to an upsert topic (JSON keys and rows, tombstones for deletes):
 * each poll's changes are reduced to the last one per key, written in one transaction, and only then
 * are the offsets committed. A crash in between replays the batch, which the upserts make harmless,
 * so the table ends up exactly as the topic says. The consumers of one group share the topic's
 * partitions, so several instances split the work.
 *
 * <p>While the database refuses a batch, the sink keeps polling with its partitions paused, so that it
 * stays in its group instead of being dropped for exceeding {@code max.poll.interval.ms} and later
 * overwriting the newer values of the member that took its partitions over; a batch whose partitions
 * are taken away meanwhile is abandoned to the new owner. Anything else that stops the sink goes to
 * the failure handler, so that its owner can start it again.
 */
public final class JdbcSink implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSink.class);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final JdbcUpsertWriter writer;
    private final JsonRowDecoder rows;
    private final JsonRowDecoder keys;
    private final String topic;
    private final Consumer<Throwable> onFailure;
    private final Thread thread;
    private volatile boolean running = true;
    /** Set by the rebalance listener, which runs on the sink's thread inside {@code poll}. */
    private boolean partitionsTaken;

    /**
     * @param memberId  the instance's lasting identity in the group (static membership): a restarted
     *                  instance, even after {@code kill -9}, gets its partitions back at once instead of
     *                  waiting for its old self's session to expire
     * @param onFailure told when the sink stops for anything but {@link #close()}
     */
    public JdbcSink(Properties clientProperties, String topic, String groupId, String memberId, JdbcTarget target,
                    Consumer<Throwable> onFailure) {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        properties.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, memberId);
        // An instance that never comes back is replaced within 10 s rather than Kafka's 45.
        properties.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        this.consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.writer = new JdbcUpsertWriter(target);
        this.rows = new JsonRowDecoder(target.columns());
        List<Column> keyColumns = target.keyColumns().stream()
            .map(name -> target.columns().stream().filter(column -> column.name().equals(name)).findFirst().orElseThrow())
            .toList();
        this.keys = new JsonRowDecoder(keyColumns);
        this.topic = topic;
        this.onFailure = onFailure;
        this.thread = new Thread(this::run, "jdbc-sink-" + target.table());
        this.thread.setDaemon(true);
    }

    public JdbcSink start() {
        thread.start();
        return this;
    }

    private void run() {
        try {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    partitionsTaken |= !partitions.isEmpty();
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    // Nothing to do: a new assignment starts from the committed offsets.
                }
            });
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                if (records.isEmpty()) {
                    continue;
                }
                Map<List<Object>, Object[]> changes = new LinkedHashMap<>();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    List<Object> key = Arrays.asList(keys.decode(record.key()));
                    changes.remove(key);
                    changes.put(key, record.value() == null ? null : rows.decode(record.value()));
                }
                partitionsTaken = false;
                if (writeUntilDone(changes) && running) {
                    commit();
                }
            }
        } catch (WakeupException stopping) {
            // close() wakes the consumer up to stop it.
        } catch (RuntimeException e) {
            LOG.error("JDBC sink of topic {} stopped", topic, e);
            onFailure.accept(e);
        } finally {
            consumer.close();
        }
    }

    /**
     * Retries a batch the database refuses, with growing pauses, until it is written (true), or the
     * sink stops or loses the batch's partitions to another member (false).
     */
    private boolean writeUntilDone(Map<List<Object>, Object[]> changes) {
        long pause = 100;
        while (running) {
            try {
                writer.apply(changes);
                consumer.resume(consumer.paused());
                return true;
            } catch (SQLException e) {
                LOG.warn("JDBC sink of topic {} cannot write {} changes, retrying in {} ms: {}", topic, changes.size(),
                    pause, e.getMessage());
                if (!pollPausedFor(Duration.ofMillis(pause))) {
                    LOG.info("JDBC sink of topic {}: its partitions went to another member while the database "
                        + "refused a batch; the new owner writes it", topic);
                    return false;
                }
                pause = Math.min(pause * 2, 10_000);
            }
        }
        return false;
    }

    /** Waits, polling with every partition paused, and tells whether this member still has the batch's partitions. */
    private boolean pollPausedFor(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        consumer.pause(consumer.assignment());
        while (running && !partitionsTaken) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            // Paused partitions return nothing: the poll only keeps the membership and runs rebalances.
            consumer.poll(Duration.ofNanos(Math.min(left, Duration.ofMillis(500).toNanos())));
        }
        if (partitionsTaken) {
            consumer.resume(consumer.paused());
            return false;
        }
        return true;
    }

    private void commit() {
        try {
            consumer.commitSync();
        } catch (CommitFailedException | RebalanceInProgressException e) {
            // The batch is in the table; whoever gets the partitions replays it from the last commit, which
            // the upserts make harmless.
            LOG.info("JDBC sink of topic {} could not commit during a rebalance; its last batch is replayed: {}",
                topic, e.getMessage());
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
            writer.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            LOG.debug("Closing the JDBC connection failed: {}", e.toString());
        }
    }
}
