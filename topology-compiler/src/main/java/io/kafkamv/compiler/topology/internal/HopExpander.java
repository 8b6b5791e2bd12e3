package io.kafkamv.compiler.topology.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.kafkamv.compiler.plan.WindowStep;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Copies each row into every hopping window that holds its time. A table's changes carry only the
 * new row, so each row's last time is remembered here to delete it from windows it has left.
 */
public final class HopExpander implements Processor<Object[], Object[], Object[], Object[]> {

    private final WindowStep step;
    private final RowCodec inputKeys;
    private final String storeName;
    private KeyValueStore<Bytes, byte[]> lastTimes;
    private ProcessorContext<Object[], Object[]> context;

    public HopExpander(WindowStep step, RowCodec inputKeys, String storeName) {
        this.step = step;
        this.inputKeys = inputKeys;
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext<Object[], Object[]> context) {
        this.context = context;
        this.lastTimes = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<Object[], Object[]> record) {
        byte[] rowKey = inputKeys.encode(record.key());
        Bytes storeKey = Bytes.wrap(rowKey);
        byte[] last = lastTimes.get(storeKey);
        Long time = record.value() == null ? null : (Long) record.value()[step.timeColumn()];
        List<Long> before = last == null ? List.of() : starts(ByteBuffer.wrap(last).getLong());
        List<Long> after = time == null ? List.of() : starts(time);
        for (Long start : before) {
            if (!after.contains(start)) {
                context.forward(record.withKey(new Object[] {rowKey, start}).withValue(null));
            }
        }
        for (Long start : after) {
            Object[] row = Arrays.copyOf(record.value(), record.value().length + 2);
            row[row.length - 2] = start;
            row[row.length - 1] = start + step.sizeMillis();
            context.forward(record.withKey(new Object[] {rowKey, start}).withValue(row));
        }
        if (time == null) {
            lastTimes.delete(storeKey);
        } else {
            lastTimes.put(storeKey, ByteBuffer.allocate(8).putLong(time).array());
        }
    }

    private List<Long> starts(long time) {
        List<Long> starts = new ArrayList<>();
        for (long start = step.latestStart(time); start + step.sizeMillis() > time; start -= step.slideMillis()) {
            starts.add(start);
        }
        return starts;
    }
}
