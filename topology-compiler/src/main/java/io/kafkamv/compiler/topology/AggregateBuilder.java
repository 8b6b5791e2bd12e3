package io.kafkamv.compiler.topology;

import java.util.function.Supplier;

import io.kafkamv.compiler.plan.AggregateStep.AggregateCall;
import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.topology.internal.Accumulator;
import io.kafkamv.compiler.topology.internal.AccumulatorSerde;
import io.kafkamv.compiler.topology.internal.AggregateResults;
import io.kafkamv.compiler.topology.internal.PartialAggregator;
import io.kafkamv.compiler.topology.internal.Rows;
import io.kafkamv.connectors.row.RowSerde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;

/** Builds an {@link AggregateStep}: with retraction over a table, or folded as a stream over append-only rows. */
final class AggregateBuilder {

    private final BuildContext context;

    AggregateBuilder(BuildContext context) {
        this.context = context;
    }

    Supplier<KTable<Object[], Object[]>> build(AggregateStep step) {
        return () -> context.producesInserts(step.input()) ? insertsAggregated(step) : aggregated(step);
    }

    /** Every change of the input goes to its group's partition, where rows are added and retracted. */
    private KTable<Object[], Object[]> aggregated(AggregateStep step) {
        int[] groupBy = step.groupBy().stream().mapToInt(Integer::intValue).toArray();
        AggregateCall[] calls = step.aggregates().toArray(AggregateCall[]::new);
        KTable<Object[], Accumulator> accumulators = context.table(step.input())
            .groupBy((key, row) -> KeyValue.pair(Rows.project(row, groupBy), row), byGroup(step))
            .aggregate(() -> new Accumulator(calls.length),
                (groupKey, row, accumulator) -> accumulator.plus(calls, row, 1),
                (groupKey, row, accumulator) -> accumulator.plus(calls, row, -1),
                Named.as(step.id() + "-aggregate"), state(step));
        return results(step, accumulators);
    }

    /**
     * Rows that are only ever inserted are aggregated as a stream: no table of the input rows, and
     * nothing to retract. Each row is folded in as it comes, so the committed offsets of the input
     * and of the exchange say exactly what the aggregate holds (a view becomes visible on them).
     */
    private KTable<Object[], Object[]> insertsAggregated(AggregateStep step) {
        if (context.insertExchanges()) {
            return partiallyAggregated(step);
        }
        int[] groupBy = step.groupBy().stream().mapToInt(Integer::intValue).toArray();
        AggregateCall[] calls = step.aggregates().toArray(AggregateCall[]::new);
        KTable<Object[], Accumulator> accumulators = context.stream(step.input())
            .groupBy((key, row) -> Rows.project(row, groupBy), byGroup(step))
            .aggregate(() -> new Accumulator(calls.length),
                (groupKey, row, accumulator) -> accumulator.plus(calls, row, 1),
                Named.as(step.id() + "-aggregate"), state(step));
        return results(step, accumulators);
    }

    /**
     * Local-global aggregation of rows that are only ever inserted: each task folds its rows into a
     * partial per group (see {@link PartialAggregator}), and the group's partition merges the partials.
     */
    private KTable<Object[], Object[]> partiallyAggregated(AggregateStep step) {
        int calls = step.aggregates().size();
        context.builder().addStateStore(PartialAggregator.partialsStoreBuilder(step));
        context.builder().addStateStore(PartialAggregator.pendingStoreBuilder(step));
        KTable<Object[], Accumulator> accumulators = context.stream(step.input())
            .process(() -> new PartialAggregator(step), Named.as(step.id() + "-partial"),
                PartialAggregator.partialsStore(step), PartialAggregator.pendingStore(step))
            // An explicit exchange: the optimizer would move an implicit one up to the last key change
            // before the partials, so that rows, not partials, crossed it.
            .repartition(Repartitioned.with(new RowSerde(step.key()), new AccumulatorSerde(calls))
                .withName(step.id() + "-by-group"))
            .groupByKey(Grouped.with(step.id() + "-grouped", new RowSerde(step.key()), new AccumulatorSerde(calls)))
            .aggregate(() -> new Accumulator(calls),
                (groupKey, partial, accumulator) -> accumulator.merged(partial),
                Named.as(step.id() + "-aggregate"), state(step));
        return results(step, accumulators);
    }

    /** The exchange of an aggregation's input rows to their group's partition. */
    private Grouped<Object[], Object[]> byGroup(AggregateStep step) {
        return Grouped.with(step.id() + "-by-group", new RowSerde(step.key()),
            new RowSerde(context.step(step.input()).schema().columns()));
    }

    /** The store of an aggregation's accumulators, one per group. */
    private static Materialized<Object[], Accumulator, KeyValueStore<Bytes, byte[]>> state(AggregateStep step) {
        return Materialized.<Object[], Accumulator, KeyValueStore<Bytes, byte[]>>as(step.stateStore())
            .withKeySerde(new RowSerde(step.key())).withValueSerde(new AccumulatorSerde(step.aggregates().size()));
    }

    private KTable<Object[], Object[]> results(AggregateStep step, KTable<Object[], Accumulator> accumulators) {
        AggregateResults results = new AggregateResults(step);
        return accumulators.mapValues((groupKey, accumulator) -> results.row(groupKey, accumulator,
            (column, failure) -> context.errors().report(step.id(), column.name(), failure)),
            Named.as(step.id() + "-result"));
    }
}
