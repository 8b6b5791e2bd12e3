package io.kafkamv.compiler.topology.internal;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * How a source's record keys reach its {@link SourceDecoder}.
 *
 * <p>Usually as the record's bytes ({@link #BYTES}): the stream is then keyed by the rows' primary keys the decoder
 * reads from the values, and Kafka Streams sends it through a repartition topic, as after every step that changes keys.
 *
 * <p>For a source whose record keys are its rows' primary keys ({@code key.is_primary_key}) the stream is keyed by them
 * from the start ({@link #primaryKeys}), so nothing changes its keys and nothing is repartitioned: the deserializer hands
 * out a key array holding only the undecoded bytes, and the decoder fills it with the key it read and checked, in place,
 * before the record goes on; from then on it never changes. The deserializer does not decode itself: what it throws
 * would be dropped by the deserialization handler, not counted as a dead letter, and a Schema Registry outage must stop
 * the thread to be retried, not skip records.
 *
 * <p>A record reaches the decoder once: under exactly-once processing, which every job runs with, Kafka Streams does
 * not process a record again after a failure but fetches it anew (a new key array). At least once, a record retried
 * after a timeout would meet its key filled already, which {@link PrimaryKeys#raw} refuses.
 */
public interface SourceKeys<K> {

    /** The record key's bytes as the topic holds them (null for a record without a key). */
    byte[] raw(K key);

    /** Fills {@code key} with the decoded primary key {@code primaryKey}, where the stream is keyed by it already. */
    void fill(K key, Object[] primaryKey);

    /** Keys as bytes; the stream is keyed by the decoded primary keys afterwards. */
    SourceKeys<byte[]> BYTES = new SourceKeys<>() {
        @Override
        public byte[] raw(byte[] key) {
            return key;
        }

        @Override
        public void fill(byte[] key, Object[] primaryKey) {
        }
    };

    /** Keys that are the rows' primary keys, of {@code columns} columns, decoded in place. */
    static PrimaryKeys primaryKeys(int columns) {
        return new PrimaryKeys(columns);
    }

    /** A record key not decoded yet: the first element of its key array until the decoder fills it. */
    record Undecoded(byte[] bytes) {
    }

    /** {@link SourceKeys} of a source keyed by its primary key, with the serde its records are read with. */
    final class PrimaryKeys implements SourceKeys<Object[]> {

        private final int columns;

        private PrimaryKeys(int columns) {
            if (columns < 1) {
                throw new IllegalArgumentException("a primary key has at least one column");
            }
            this.columns = columns;
        }

        @Override
        public byte[] raw(Object[] key) {
            if (key[0] instanceof Undecoded undecoded) {
                return undecoded.bytes();
            }
            throw new IllegalStateException("the record key was decoded already");
        }

        @Override
        public void fill(Object[] key, Object[] primaryKey) {
            System.arraycopy(primaryKey, 0, key, 0, columns);
        }

        /** Reads a record key into an array of the key's width holding its bytes; never written (only read). */
        public Serde<Object[]> serde() {
            Deserializer<Object[]> deserializer = (topic, bytes) -> {
                Object[] key = new Object[columns];
                key[0] = new Undecoded(bytes);
                return key;
            };
            Serializer<Object[]> serializer = (topic, key) -> {
                throw new UnsupportedOperationException("a source's record keys are read, never written");
            };
            return Serdes.serdeFrom(serializer, deserializer);
        }
    }
}
