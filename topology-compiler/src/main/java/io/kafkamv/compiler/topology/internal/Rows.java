package io.kafkamv.compiler.topology.internal;

/** Small operations on rows, which are arrays of column values. */
public final class Rows {

    private Rows() {
    }

    /** The values of {@code columns}, in that order. */
    public static Object[] project(Object[] row, int[] columns) {
        Object[] projected = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            projected[i] = row[columns[i]];
        }
        return projected;
    }
}
