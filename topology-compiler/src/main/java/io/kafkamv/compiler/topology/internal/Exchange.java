package io.kafkamv.compiler.topology.internal;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

import io.kafkamv.compiler.runtime.CompositeKeys;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * What crosses partitions: rows keyed by {@link CompositeKeys} go to the partition of their prefix,
 * so that the rows they meet (a join key's, a group's) are there too.
 */
public final class Exchange {

    private Exchange() {
    }

    /** Sends rows with the same prefix to the same partition, whatever their row keys. */
    public static <V> StreamPartitioner<byte[], V> partitioner() {
        return new ByPrefix<>();
    }

    // Kafka 4 deprecates the header-less method but still declares it abstract: it must be implemented.
    @SuppressWarnings("removal")
    private static final class ByPrefix<V> implements StreamPartitioner<byte[], V> {
        @Override
        public Optional<Set<Integer>> partitions(String topic, byte[] key, V value, Headers headers, int partitions) {
            int hash = Utils.toPositive(Utils.murmur2(Arrays.copyOf(key, CompositeKeys.prefixLength(key))));
            return Optional.of(Set.of(hash % partitions));
        }

        @Override
        public Optional<Set<Integer>> partitions(String topic, byte[] key, V value, int partitions) {
            return partitions(topic, key, value, null, partitions);
        }
    }
}
