package io.kafkamv.compiler.topology;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.runtime.IndexKeys;
import io.kafkamv.compiler.topology.internal.IndexWriter;
import io.kafkamv.compiler.topology.internal.JoinSide;
import io.kafkamv.compiler.topology.internal.SinkEncoder;
import io.kafkamv.compiler.topology.internal.ViewAppender;
import io.kafkamv.connectors.row.RowSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** What a plan's last step becomes: a view (a store and a changelog), a sink, or an index. */
final class PlanOutputs {

    private PlanOutputs() {
    }

    /**
     * A view keeps its rows in a store for queries and writes its changes to its changelog topic. A view of an
     * aggregate's rows keeps them in the aggregate's state already ({@link PhysicalPlan#rowsFromAggregate}).
     */
    static void keepAsView(BuildContext context, KTable<Object[], Object[]> rows) {
        PhysicalPlan plan = context.plan();
        PlanStep root = plan.root();
        RowSerde keySerde = new RowSerde(root.key());
        RowSerde valueSerde = new RowSerde(root.schema().columns());
        KTable<Object[], Object[]> view = plan.rowsFromAggregate() ? rows
            : rows.mapValues(row -> row, Named.as(context.name("view-rows")),
                Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(plan.store())
                    .withKeySerde(keySerde).withValueSerde(valueSerde));
        view.toStream(Named.as(context.name("view-changes")))
            .to(plan.outputTopic(), Produced.with(keySerde, valueSerde).withName(context.name("view-output")));
    }

    /** A view of rows that are only ever inserted keeps them as they come, without a table in between. */
    static void keepInsertsAsView(BuildContext context, KStream<Object[], Object[]> rows) {
        PhysicalPlan plan = context.plan();
        PlanStep root = plan.root();
        RowSerde keySerde = new RowSerde(root.key());
        RowSerde valueSerde = new RowSerde(root.schema().columns());
        context.builder().addStateStore(
            Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(plan.store()), keySerde, valueSerde));
        rows.process(() -> new ViewAppender(plan.store()), Named.as(context.name("view-rows")), plan.store())
            .to(plan.outputTopic(), Produced.with(keySerde, valueSerde).withName(context.name("view-output")));
    }

    /** A sink encodes its changes and writes them to its topic, in the streams' transactions. */
    static void writeOut(StreamsBuilder builder, PhysicalPlan plan, KTable<Object[], Object[]> rows) {
        PlanStep root = plan.root();
        builder.addStateStore(BuildContext.bytesStore(SinkEncoder.LAST_ROWS));
        rows.toStream(Named.as("sink-changes"))
            .process(() -> new SinkEncoder(plan.sink(), plan.view(), root.key(), root.schema().columns()),
                Named.as("sink-encode"), SinkEncoder.LAST_ROWS)
            .to(plan.sink().topic(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("sink-output"));
    }

    /** An index sends each row to where its indexed values are kept and stores it under them. */
    static void keepAsIndex(StreamsBuilder builder, PhysicalPlan plan, KTable<Object[], Object[]> rows) {
        IndexKeys keys = new IndexKeys(plan);
        builder.addStateStore(BuildContext.bytesStore(IndexWriter.STORE));
        // A single-input exchange sends its changes as a join's left side does.
        Exchanges.exchange(builder, rows, plan.root(), "index", "index-values", "index-by-values", plan.index().partitions(),
            keys::prefixOfRow, JoinSide.LEFT::change)
            .process(IndexWriter::new, Named.as("index-write"), IndexWriter.STORE);
    }
}
