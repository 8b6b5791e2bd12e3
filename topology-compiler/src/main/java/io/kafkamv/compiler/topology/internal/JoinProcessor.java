package io.kafkamv.compiler.topology.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.kafkamv.compiler.plan.JoinStep;
import io.kafkamv.compiler.runtime.CompositeKeys;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The symmetric hash join: each side's rows are stored by join key; a change on one side is joined
 * with the other side's rows of the same key, retracting the joined rows of the old row and
 * emitting those of the new one. Outer joins also track when a join key's rows on one side come
 * and go, which turns the other side's padded rows into matched ones and back.
 */
public final class JoinProcessor implements Processor<byte[], byte[], Object[], Object[]> {

    private static final BytesSerializer PREFIX = new BytesSerializer();

    private final JoinStep step;
    private final RowCodec leftRows;
    private final RowCodec rightRows;
    private KeyValueStore<Bytes, byte[]> leftStore;
    private KeyValueStore<Bytes, byte[]> rightStore;
    private ProcessorContext<Object[], Object[]> context;

    public JoinProcessor(JoinStep step, RowCodec leftRows, RowCodec rightRows) {
        this.step = step;
        this.leftRows = leftRows;
        this.rightRows = rightRows;
    }

    public static String storeName(JoinStep step, JoinSide side) {
        return step.id() + "-" + side.name().toLowerCase(java.util.Locale.ROOT) + "-rows";
    }

    @Override
    public void init(ProcessorContext<Object[], Object[]> context) {
        this.context = context;
        this.leftStore = context.getStateStore(storeName(step, JoinSide.LEFT));
        this.rightStore = context.getStateStore(storeName(step, JoinSide.RIGHT));
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        JoinSide side = JoinSide.of(record.value());
        byte[] newRow = JoinSide.row(record.value());
        KeyValueStore<Bytes, byte[]> mine = store(side);
        Bytes storeKey = Bytes.wrap(record.key());
        byte[] oldRow = mine.get(storeKey);
        if (Arrays.equals(oldRow, newRow)) {
            return;
        }
        byte[] prefix = CompositeKeys.prefixOf(record.key());
        byte[] rowKey = CompositeKeys.rowKeyOf(record.key());
        boolean matchable = CompositeKeys.matchable(record.key());
        List<KeyValue<Bytes, byte[]>> matches = matchable ? rows(store(side.other()), prefix) : List.of();
        boolean keepsMine = side == JoinSide.LEFT ? step.kind().keepsLeft() : step.kind().keepsRight();
        boolean keepsOther = side == JoinSide.LEFT ? step.kind().keepsRight() : step.kind().keepsLeft();
        // Whether the other side's rows of this key are padded before or after this change depends on
        // whether this side has other rows of the key.
        boolean mineHasOthers = keepsOther && !matches.isEmpty() && hasRowOtherThan(mine, prefix, storeKey);

        if (oldRow != null) {
            if (matches.isEmpty()) {
                if (keepsMine) {
                    emit(record, side, prefix, rowKey, null, null, null);
                }
            } else {
                for (KeyValue<Bytes, byte[]> match : matches) {
                    emit(record, side, prefix, rowKey, CompositeKeys.rowKeyOf(match.key.get()), null, null);
                }
            }
        } else if (keepsOther && !mineHasOthers) {
            for (KeyValue<Bytes, byte[]> match : matches) {
                emit(record, side, prefix, null, CompositeKeys.rowKeyOf(match.key.get()), null, null);
            }
        }

        if (newRow == null) {
            mine.delete(storeKey);
        } else {
            mine.put(storeKey, newRow);
        }

        if (newRow != null) {
            if (matches.isEmpty()) {
                if (keepsMine) {
                    emit(record, side, prefix, rowKey, null, newRow, null);
                }
            } else {
                for (KeyValue<Bytes, byte[]> match : matches) {
                    emit(record, side, prefix, rowKey, CompositeKeys.rowKeyOf(match.key.get()), newRow, match.value);
                }
            }
        } else if (keepsOther && !mineHasOthers) {
            for (KeyValue<Bytes, byte[]> match : matches) {
                emit(record, side, prefix, null, CompositeKeys.rowKeyOf(match.key.get()), null, match.value);
            }
        }
    }

    private KeyValueStore<Bytes, byte[]> store(JoinSide side) {
        return side == JoinSide.LEFT ? leftStore : rightStore;
    }

    private static List<KeyValue<Bytes, byte[]>> rows(KeyValueStore<Bytes, byte[]> store, byte[] prefix) {
        List<KeyValue<Bytes, byte[]>> rows = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> iterator = store.prefixScan(Bytes.wrap(prefix), PREFIX)) {
            iterator.forEachRemaining(rows::add);
        }
        return rows;
    }

    private static boolean hasRowOtherThan(KeyValueStore<Bytes, byte[]> store, byte[] prefix, Bytes key) {
        try (KeyValueIterator<Bytes, byte[]> iterator = store.prefixScan(Bytes.wrap(prefix), PREFIX)) {
            while (iterator.hasNext()) {
                if (!iterator.next().key.equals(key)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Emits one joined row, or its deletion when both rows are null. Keys and rows are given as this
     * side's and the other side's, and put in left-right order here.
     */
    private void emit(Record<byte[], byte[]> record, JoinSide side, byte[] prefix, byte[] myKey, byte[] otherKey,
                      byte[] myRow, byte[] otherRow) {
        byte[] leftKey = side == JoinSide.LEFT ? myKey : otherKey;
        byte[] rightKey = side == JoinSide.LEFT ? otherKey : myKey;
        Object[] key = {prefix, leftKey, rightKey};
        Object[] row = null;
        if (myRow != null || otherRow != null) {
            byte[] left = side == JoinSide.LEFT ? myRow : otherRow;
            byte[] right = side == JoinSide.LEFT ? otherRow : myRow;
            row = new Object[leftRows.arity() + rightRows.arity()];
            if (left != null) {
                System.arraycopy(leftRows.decode(left), 0, row, 0, leftRows.arity());
            }
            if (right != null) {
                System.arraycopy(rightRows.decode(right), 0, row, leftRows.arity(), rightRows.arity());
            }
        }
        context.forward(new Record<>(key, row, record.timestamp(), record.headers()));
    }
}
