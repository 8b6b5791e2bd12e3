package io.kafkamv.service.tables;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes rows into table topics: upserts keyed by primary key, deletes as tombstones. A table
 * without a primary key gets a random 64-bit row id per row. Every write is acknowledged by all
 * in-sync replicas before the statement returns.
 *
 * <p>A {@linkplain #transactional transactional} writer writes everything in one Kafka transaction,
 * which takes effect at {@link #commit} or not at all: what a background statement writes.
 */
public final class TableWriter implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final SecureRandom random = new SecureRandom();
    private final AtomicLong rowsWritten = new AtomicLong();
    private final boolean transactional;

    public TableWriter(Properties clientProperties) {
        this(clientProperties, null);
    }

    private TableWriter(Properties clientProperties, String transactionalId) {
        this.transactional = transactionalId != null;
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
        properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        if (transactionalId != null) {
            properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        this.producer = new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * A writer whose writes are one transaction, begun here. Opening one fences every earlier writer
     * with the same id, on any instance, and aborts what it left open: of two runs of one background
     * statement, only the last can commit.
     */
    public static TableWriter transactional(Properties clientProperties, String transactionalId) {
        TableWriter writer = new TableWriter(clientProperties, transactionalId);
        try {
            writer.producer.initTransactions();
            writer.producer.beginTransaction();
        } catch (RuntimeException e) {
            writer.producer.close(Duration.ZERO);
            throw e;
        }
        return writer;
    }

    /** Commits a transactional writer's writes together with {@code alsoWrite} (records of other topics). */
    public void commit(List<ProducerRecord<byte[], byte[]>> alsoWrite) {
        alsoWrite.forEach(producer::send);
        producer.commitTransaction();
    }

    /** Drops a transactional writer's writes, and begins a new transaction. */
    public void abort() {
        producer.abortTransaction();
        producer.beginTransaction();
    }

    /** Rows this writer has sent, over all its batches. */
    public long rowsWritten() {
        return rowsWritten.get();
    }

    /** One batch of writes to one table; {@link Batch#complete()} waits for every acknowledgement. */
    public Batch batch(Relation table) {
        return new Batch(table);
    }

    /** Returns once every write sent so far, by any session, is acknowledged. */
    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }

    public final class Batch {
        private final Relation table;
        private final RowCodec keyCodec;
        private final RowCodec valueCodec;
        private final int[] keyIndexes;
        private final AtomicLong acknowledged = new AtomicLong();
        private final AtomicReference<Exception> refused = new AtomicReference<>();
        private final Callback acknowledgement = (metadata, exception) -> {
            if (exception == null) {
                acknowledged.incrementAndGet();
            } else {
                refused.compareAndSet(null, exception);
            }
        };
        private long count;

        private Batch(Relation table) {
            this.table = table;
            this.keyCodec = new RowCodec(table.key());
            this.valueCodec = new RowCodec(table.schema().columns());
            this.keyIndexes = table.schema().appendOnly() ? new int[0]
                : table.key().stream().mapToInt(column -> table.schema().columns().indexOf(column)).toArray();
        }

        public void upsert(Object[] row) {
            send(key(row), valueCodec.encode(row));
        }

        public void delete(Object[] row) {
            send(key(row), null);
        }

        private byte[] key(Object[] row) {
            if (keyIndexes.length == 0) {
                return keyCodec.encode(new Object[] {random.nextLong()});
            }
            Object[] key = new Object[keyIndexes.length];
            for (int i = 0; i < keyIndexes.length; i++) {
                key[i] = row[keyIndexes[i]];
            }
            return keyCodec.encode(key);
        }

        /**
         * Hands the row to the producer without waiting: the producer's buffer bounds what is in flight (a full
         * buffer blocks the send), and acknowledgements are counted as they come. Waiting for them every few
         * thousand rows stalled the statement for a linger and a round trip each time.
         */
        private void send(byte[] key, byte[] value) {
            throwIfRefused();
            try {
                producer.send(new ProducerRecord<>(table.topic(), key, value), acknowledgement);
            } catch (InterruptException e) {
                throw interrupted();
            }
            count++;
            rowsWritten.incrementAndGet();
        }

        /** Waits until every write of this batch is acknowledged and returns how many there were. */
        public long complete() {
            try {
                // Every callback of a record sent before has run when flush returns.
                producer.flush();
            } catch (InterruptException e) {
                throw interrupted();
            }
            throwIfRefused();
            return count;
        }

        private RuntimeException interrupted() {
            Thread.currentThread().interrupt();
            return SqlError.of(SqlState.QUERY_CANCELED, "canceling statement: writing to table " + table.name()
                + " was interrupted after " + acknowledged.get() + " of its rows were written");
        }

        private void throwIfRefused() {
            Exception exception = refused.get();
            if (exception == null) {
                return;
            }
            throw SqlError.at(SqlState.SYSTEM_ERROR, "writing to table " + table.name() + " failed after at least "
                + acknowledged.get() + " of its rows were written: " + exception.getMessage(), 0,
                "Kafka refused the rows or did not take them in time. " + (transactional
                    ? "None of them is kept: the statement's transaction is aborted."
                    : table.schema().appendOnly()
                        ? "The rows written stay (a failed write is not undone); the table has no primary key, so "
                            + "writing them again adds them again."
                        : "The rows written stay (a failed write is not undone); writing them again replaces them "
                            + "by their key."));
        }
    }
}
