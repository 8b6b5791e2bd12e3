package io.kafkamv.compiler.topology.internal;

import java.util.Arrays;
import java.util.List;

import io.kafkamv.compiler.plan.CalcStep;
import io.kafkamv.compiler.plan.LookupJoinStep;
import io.kafkamv.compiler.runtime.EvaluationErrors;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Joins each row with the row of the looked-up table that has the key it names, read from the table's copy
 * this instance keeps ({@link LookupTableUpdater}). Forwards the joined row, or null for a row that an inner
 * join drops (a deletion of what the row joined before) and for a deleted row.
 */
public final class LookupJoinProcessor implements FixedKeyProcessor<Object[], Object[], Object[]> {

    private final String store;
    private final int[] inputKeys;
    private final List<Column> tableKey;
    private final RowCodec keyCodec;
    private final RowCodec tableCodec;
    private final CalcEvaluator tableCalc;
    private final int tableWidth;
    private final boolean keepUnmatched;
    private KeyValueStore<Bytes, byte[]> table;
    private FixedKeyProcessorContext<Object[], Object[]> context;

    /**
     * @param store      the name of the table's store
     * @param inputWidth how many columns the step's input rows have
     */
    public LookupJoinProcessor(LookupJoinStep step, String store, int inputWidth, EvaluationErrors errors) {
        this.store = store;
        this.inputKeys = step.inputKeys().stream().mapToInt(Integer::intValue).toArray();
        this.tableKey = step.tableKey();
        this.keyCodec = new RowCodec(step.tableKey());
        this.tableCodec = new RowCodec(step.tableSchema().columns());
        List<Column> columns = step.schema().columns();
        this.tableWidth = columns.size() - inputWidth;
        RowSchema tableOutput = new RowSchema(columns.subList(inputWidth, columns.size()), List.of());
        this.tableCalc = step.tableSql() == null ? null
            : CalcEvaluator.of(new CalcStep(step.id() + "-table", "input", step.tableSql(), tableOutput, step.tableKey()),
                step.tableSchema(), errors);
        this.keepUnmatched = step.keepUnmatched();
    }

    @Override
    public void init(FixedKeyProcessorContext<Object[], Object[]> context) {
        this.context = context;
        this.table = context.getStateStore(store);
    }

    @Override
    public void process(FixedKeyRecord<Object[], Object[]> record) {
        Object[] row = record.value();
        context.forward(record.withValue(row == null ? null : joined(row, match(row))));
    }

    /** The table's row for the input row, computed as the plan says; null if there is none or it is filtered out. */
    private Object[] match(Object[] row) {
        Object[] key = new Object[inputKeys.length];
        for (int i = 0; i < inputKeys.length; i++) {
            try {
                key[i] = SqlValues.convert(row[inputKeys[i]], tableKey.get(i).type());
            } catch (ArithmeticException outOfRange) {
                // No key of the table's type has this value.
                return null;
            }
            if (key[i] == null) {
                return null;
            }
        }
        byte[] found = table.get(Bytes.wrap(keyCodec.encode(key)));
        if (found == null) {
            return null;
        }
        Object[] tableRow = tableCodec.decode(found);
        if (tableCalc == null) {
            return tableRow;
        }
        if (tableCalc.hasCondition() && !tableCalc.test(tableRow)) {
            return null;
        }
        return tableCalc.project(tableRow);
    }

    private Object[] joined(Object[] row, Object[] match) {
        if (match == null && !keepUnmatched) {
            return null;
        }
        Object[] joined = Arrays.copyOf(row, row.length + tableWidth);
        if (match != null) {
            System.arraycopy(match, 0, joined, row.length, tableWidth);
        }
        return joined;
    }
}
