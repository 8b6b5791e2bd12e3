package io.kafkamv.connectors.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.kafkamv.connectors.format.JsonRowDecoder;
import io.kafkamv.connectors.schema.Column;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
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
 */
public final class JdbcSink implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSink.class);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final JdbcUpsertWriter writer;
    private final JsonRowDecoder rows;
    private final JsonRowDecoder keys;
    private final String topic;
    private final Thread thread;
    private volatile boolean running = true;

    public JdbcSink(Properties clientProperties, String topic, String groupId, JdbcTarget target) {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
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
        this.thread = new Thread(this::run, "jdbc-sink-" + target.table());
        this.thread.setDaemon(true);
    }

    public JdbcSink start() {
        thread.start();
        return this;
    }

    private void run() {
        try {
            consumer.subscribe(List.of(topic));
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
                writeUntilDone(changes);
                if (running) {
                    consumer.commitSync();
                }
            }
        } catch (WakeupException stopping) {
            // close() wakes the consumer up to stop it.
        } catch (RuntimeException e) {
            LOG.error("JDBC sink of topic {} stopped", topic, e);
        } finally {
            consumer.close();
        }
    }

    /** Retries a batch the database refuses, with growing pauses, until it is written or the sink stops. */
    private void writeUntilDone(Map<List<Object>, Object[]> changes) {
        long pause = 100;
        while (running) {
            try {
                writer.apply(changes);
                return;
            } catch (SQLException e) {
                LOG.warn("JDBC sink of topic {} cannot write {} changes, retrying in {} ms: {}", topic, changes.size(),
                    pause, e.getMessage());
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
                pause = Math.min(pause * 2, 10_000);
            }
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
