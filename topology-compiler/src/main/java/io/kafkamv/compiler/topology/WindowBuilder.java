package io.kafkamv.compiler.topology;

import java.util.Arrays;
import java.util.function.Supplier;

import io.kafkamv.compiler.plan.WindowStep;
import io.kafkamv.compiler.topology.internal.HopExpander;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.ValueMapper;

/** Builds a {@link WindowStep}: tumbling windows computed per row, hopping ones expanded into each window. */
final class WindowBuilder {

    private final BuildContext context;

    WindowBuilder(BuildContext context) {
        this.context = context;
    }

    Supplier<KTable<Object[], Object[]>> build(WindowStep step) {
        int time = step.timeColumn();
        ValueMapper<Object[], Object[]> tumble = row -> {
            Object[] windowed = Arrays.copyOf(row, row.length + 2);
            long start = step.latestStart((Long) row[time]);
            windowed[row.length] = start;
            windowed[row.length + 1] = start + step.sizeMillis();
            return windowed;
        };
        if (context.producesInserts(step.id())) {
            context.offerStream(step.id(), () -> context.stream(step.input())
                .filter((key, row) -> row[time] != null, Named.as(step.id() + "-insert-timed"))
                .mapValues(tumble, Named.as(step.id() + "-insert-windows")));
        }
        return () -> window(step, tumble);
    }

    private KTable<Object[], Object[]> window(WindowStep step, ValueMapper<Object[], Object[]> tumble) {
        KTable<Object[], Object[]> input = context.table(step.input());
        int time = step.timeColumn();
        if (step.kind() == WindowStep.WindowKind.TUMBLE) {
            return input.filter((key, row) -> row[time] != null, Named.as(step.id() + "-timed"))
                .mapValues(tumble, Named.as(step.id() + "-windows"));
        }
        String lastTimes = step.id() + "-times";
        context.addBytesStore(lastTimes);
        RowCodec inputKeys = new RowCodec(context.step(step.input()).key());
        return Exchanges.rekeyedTable(input.toStream(Named.as(step.id() + "-changes"))
            .process(() -> new HopExpander(step, inputKeys, lastTimes), Named.as(step.id() + "-windows"),
                lastTimes), step);
    }
}
