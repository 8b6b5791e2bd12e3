package io.kafkamv.compiler.runtime;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * How rows are keyed when they are sent to where the rows they meet are (a join key's rows, a
 * group's rows), and in an index's store: a prefix that says where, followed by the row's key in its
 * input. The prefix is one byte that is 1 when the rows under it can match at all (a join key without
 * NULL), the length of the encoded value as four bytes, and the value. Stores keyed this way find a
 * prefix's rows with a prefix scan, and an exchange partitions by the prefix alone.
 */
public final class CompositeKeys {

    private CompositeKeys() {
    }

    public static byte[] prefix(byte[] encoded, boolean matchable) {
        return ByteBuffer.allocate(5 + encoded.length).put((byte) (matchable ? 1 : 0)).putInt(encoded.length)
            .put(encoded).array();
    }

    public static byte[] compose(byte[] prefix, byte[] rowKey) {
        return ByteBuffer.allocate(prefix.length + rowKey.length).put(prefix).put(rowKey).array();
    }

    public static int prefixLength(byte[] composite) {
        return 5 + ByteBuffer.wrap(composite, 1, 4).getInt();
    }

    public static byte[] prefixOf(byte[] composite) {
        return Arrays.copyOf(composite, prefixLength(composite));
    }

    public static byte[] rowKeyOf(byte[] composite) {
        return Arrays.copyOfRange(composite, prefixLength(composite), composite.length);
    }

    public static boolean matchable(byte[] composite) {
        return composite[0] == 1;
    }
}
