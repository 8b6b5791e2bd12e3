package io.kafkamv.compiler.topology;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * How rows are keyed when they are sent to where the rows they meet are (a join key's rows, a
 * group's rows): a prefix that says where, followed by the row's key in its input. The prefix is
 * one byte that is 1 when the rows under it can match at all (a join key without NULL), the length
 * of the encoded value as four bytes, and the value. Stores keyed this way find a prefix's rows
 * with a prefix scan, and the exchange partitions by the prefix alone.
 */
final class Exchange {

    private Exchange() {
    }

    static byte[] prefix(byte[] encoded, boolean matchable) {
        return ByteBuffer.allocate(5 + encoded.length).put((byte) (matchable ? 1 : 0)).putInt(encoded.length)
            .put(encoded).array();
    }

    static byte[] compose(byte[] prefix, byte[] rowKey) {
        return ByteBuffer.allocate(prefix.length + rowKey.length).put(prefix).put(rowKey).array();
    }

    static int prefixLength(byte[] composite) {
        return 5 + ByteBuffer.wrap(composite, 1, 4).getInt();
    }

    static byte[] prefixOf(byte[] composite) {
        return Arrays.copyOf(composite, prefixLength(composite));
    }

    static byte[] rowKeyOf(byte[] composite) {
        return Arrays.copyOfRange(composite, prefixLength(composite), composite.length);
    }

    static boolean matchable(byte[] composite) {
        return composite[0] == 1;
    }

    /** Sends rows with the same prefix to the same partition, whatever their row keys. */
    static <V> StreamPartitioner<byte[], V> partitioner() {
        return new ByPrefix<>();
    }

    // Kafka 4 deprecates the header-less method but still declares it abstract: it must be implemented.
    @SuppressWarnings("removal")
    private static final class ByPrefix<V> implements StreamPartitioner<byte[], V> {
        @Override
        public Optional<Set<Integer>> partitions(String topic, byte[] key, V value, Headers headers, int partitions) {
            int hash = Utils.toPositive(Utils.murmur2(Arrays.copyOf(key, prefixLength(key))));
            return Optional.of(Set.of(hash % partitions));
        }

        @Override
        public Optional<Set<Integer>> partitions(String topic, byte[] key, V value, int partitions) {
            return partitions(topic, key, value, null, partitions);
        }
    }
}
