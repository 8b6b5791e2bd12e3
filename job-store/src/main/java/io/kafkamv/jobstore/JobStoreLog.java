package io.kafkamv.jobstore;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Where the job store's records live: one ordered log of keyed records, written by every instance and
 * read by each from its beginning. {@link KafkaJobStoreLog} keeps it on a compacted Kafka topic;
 * tests of what is built on the store can keep it in memory.
 */
public interface JobStoreLog extends AutoCloseable {

    /** A record: a key and its value, or a null value that deletes the key. */
    record Entry(String key, byte[] value) {
    }

    /** What the log's records are handed to, in log order, on the log's one reading thread. */
    interface Reader {

        /** @param partition where the record is: {@link #read} reads it again from there */
        void apply(String key, byte[] value, int partition, long offset);

        /** After each batch of records (none is empty), for listeners to look at the new state. */
        void batchApplied();
    }

    /** The log's name, for messages. */
    String name();

    /**
     * Hands {@code reader} every record from the beginning and then each new one, and returns once every
     * record written before the call is applied.
     *
     * @throws TimeoutException when that takes longer than {@code timeout}
     */
    void follow(Reader reader, Duration timeout) throws InterruptedException, TimeoutException;

    /**
     * Appends the entries in one round trip and in their order, and returns once the reader has applied
     * them all: the offset of the last, which no other append gets.
     *
     * @throws JobStoreException when they cannot be written
     */
    long append(List<Entry> entries);

    /**
     * The value of the record at {@code offset} of {@code partition}, read again from the log: what is large (result
     * pages) is not kept in memory but read when asked for. Empty when no record is there any more.
     *
     * @throws JobStoreException when it cannot be read
     */
    Optional<byte[]> read(int partition, long offset);

    /** Why this instance cannot read the log right now (it keeps trying), if it cannot. */
    Optional<String> readProblem();

    /**
     * A record of this log for another producer to write in its own transaction. It goes where no other write
     * waits behind that transaction while it is open: a transaction of a long statement, or one its runner
     * left open by dying, holds back only records of this kind.
     */
    ProducerRecord<byte[], byte[]> recordOf(Entry entry);

    /**
     * Returns once every transaction committed before the call on records of {@link #recordOf} is applied; throws
     * {@link JobStoreException} when one still open keeps it from knowing that for long.
     */
    void catchUpTransactions();

    /** Deletes keys written through {@link #recordOf}; returns once they are written, not once applied. */
    void deleteTransactional(List<String> keys);

    @Override
    void close();
}
