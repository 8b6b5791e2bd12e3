package io.kafkamv.compiler.topology;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.schema.Column;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * How a join's input rows are keyed in its exchange and stores: a prefix that says which rows can
 * match (the join key, encoded in one canonical form for equal values) followed by the row's key
 * in its input. Layout: one byte that is 1 when the join key has no NULL, the prefix length as four
 * bytes, the encoded join key, the row key. A prefix scan finds a join key's rows.
 */
final class JoinKeys {

    private final int[] columns;
    private final List<Column> joinKey;
    private final RowCodec codec;

    JoinKeys(List<Integer> columns, List<Column> joinKey) {
        this.columns = columns.stream().mapToInt(Integer::intValue).toArray();
        this.joinKey = joinKey;
        this.codec = new RowCodec(joinKey);
    }

    /** The prefix of a row: which join key it has, and whether that key can match at all. */
    byte[] prefix(Object[] row) {
        Object[] values = new Object[columns.length];
        boolean matchable = true;
        for (int i = 0; i < columns.length; i++) {
            values[i] = canonical(SqlValues.convert(row[columns[i]], joinKey.get(i).type()));
            matchable &= values[i] != null;
        }
        byte[] encoded = codec.encode(values);
        return ByteBuffer.allocate(5 + encoded.length).put((byte) (matchable ? 1 : 0)).putInt(encoded.length)
            .put(encoded).array();
    }

    /** SQL equality, not Java's: 1.0 = 1.00 and 0.0 = -0.0. */
    private static Object canonical(Object value) {
        if (value instanceof BigDecimal decimal) {
            return decimal.signum() == 0 ? BigDecimal.ZERO : decimal.stripTrailingZeros();
        }
        if (value instanceof Double d && d == 0.0) {
            return 0.0;
        }
        if (value instanceof Float f && f == 0.0f) {
            return 0.0f;
        }
        return value;
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

    /** Sends rows with the same join key to the same partition, whatever their row keys. */
    static <V> StreamPartitioner<byte[], V> partitioner() {
        return new ByJoinKey<>();
    }

    // Kafka 4 deprecates the header-less method but still declares it abstract: it must be implemented.
    @SuppressWarnings("removal")
    private static final class ByJoinKey<V> implements StreamPartitioner<byte[], V> {
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
