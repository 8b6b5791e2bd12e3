package io.kafkamv.compiler.topology;

import java.util.Arrays;

/** A group's values as a hash map key: arrays compare by identity, a group by its values. */
record GroupKey(Object[] values) {

    @Override
    public boolean equals(Object other) {
        return other instanceof GroupKey key && Arrays.deepEquals(values, key.values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
