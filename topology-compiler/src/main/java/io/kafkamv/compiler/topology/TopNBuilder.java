package io.kafkamv.compiler.topology;

import java.util.function.Supplier;

import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.plan.TopNStep;
import io.kafkamv.compiler.runtime.CompositeKeys;
import io.kafkamv.compiler.topology.internal.JoinSide;
import io.kafkamv.compiler.topology.internal.Rows;
import io.kafkamv.compiler.topology.internal.SortKeys;
import io.kafkamv.compiler.topology.internal.TopNProcessor;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Named;

/** Builds a {@link TopNStep}: rows sent over an exchange to their group's partition, where the first n are kept. */
final class TopNBuilder {

    private final BuildContext context;
    private final Exchanges exchanges;

    TopNBuilder(BuildContext context) {
        this.context = context;
        this.exchanges = new Exchanges(context);
    }

    Supplier<KTable<Object[], Object[]>> build(TopNStep step) {
        return () -> topN(step);
    }

    private KTable<Object[], Object[]> topN(TopNStep step) {
        PlanStep input = context.step(step.input());
        RowCodec inputRows = new RowCodec(input.schema().columns());
        int[] groupColumns = step.partitionBy().stream().mapToInt(Integer::intValue).toArray();
        RowCodec groupCodec = new RowCodec(step.partitionBy().stream()
            .map(column -> input.schema().columns().get(column)).toList());
        context.addBytesStore(TopNProcessor.sortedStore(step));
        context.addBytesStore(TopNProcessor.sortKeyStore(step));
        SortKeys sortKeys = new SortKeys(step.orderBy(), input.schema().columns());
        // A single-input exchange sends its changes as a join's left side does.
        KStream<Object[], Object[]> top = exchanges.of(step.input(), step.id(),
            step.id() + "-groups", step.id() + "-by-group", step.partitions(),
            row -> CompositeKeys.prefix(groupCodec.encode(Rows.project(row, groupColumns)), true), JoinSide.LEFT::change)
            .process(() -> new TopNProcessor(step, sortKeys, inputRows), Named.as(step.id() + "-top"),
                TopNProcessor.sortedStore(step), TopNProcessor.sortKeyStore(step));
        return Exchanges.rekeyedTable(top, step);
    }
}
