package io.kafkamv.compiler.topology.internal;

import java.util.Arrays;

/**
 * The side of a join a change comes from. In the exchange a change is one byte, which side and
 * whether a row follows, then the row's bytes; no row means the row is gone.
 */
public enum JoinSide {
    LEFT, RIGHT;

    private static final int RIGHT_FLAG = 1;
    private static final int ROW_FLAG = 2;

    public byte[] change(byte[] row) {
        int flags = (this == RIGHT ? RIGHT_FLAG : 0) | (row == null ? 0 : ROW_FLAG);
        byte[] change = new byte[1 + (row == null ? 0 : row.length)];
        change[0] = (byte) flags;
        if (row != null) {
            System.arraycopy(row, 0, change, 1, row.length);
        }
        return change;
    }

    static JoinSide of(byte[] change) {
        return (change[0] & RIGHT_FLAG) != 0 ? RIGHT : LEFT;
    }

    /** The row a change carries, or null when it is a deletion. */
    static byte[] row(byte[] change) {
        return (change[0] & ROW_FLAG) == 0 ? null : Arrays.copyOfRange(change, 1, change.length);
    }

    JoinSide other() {
        return this == LEFT ? RIGHT : LEFT;
    }
}
