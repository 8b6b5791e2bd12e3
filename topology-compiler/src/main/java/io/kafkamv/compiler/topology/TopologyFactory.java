package io.kafkamv.compiler.topology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.plan.AggregateStep.AggregateCall;
import io.kafkamv.compiler.plan.CalcStep;
import io.kafkamv.compiler.plan.JoinStep;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.plan.PlanStepVisitor;
import io.kafkamv.compiler.plan.SourceScanStep;
import io.kafkamv.compiler.plan.TableScanStep;
import io.kafkamv.compiler.plan.TopNStep;
import io.kafkamv.compiler.plan.WindowStep;
import io.kafkamv.compiler.plan.UnionAllStep;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.row.RowSerde;
import io.kafkamv.connectors.schema.Column;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds a view's Kafka Streams topology from its stored plan, never from its SQL. Every
 * processor, store and internal topic is named after its plan step, so names stay the same across
 * versions of kafka-mv and a running view can be restarted on a newer one.
 */
public final class TopologyFactory {

    private TopologyFactory() {
    }

    public static Topology build(PhysicalPlan plan) {
        StreamsBuilder builder = new StreamsBuilder();
        Map<String, KTable<Object[], Object[]>> tables = new HashMap<>();
        Map<String, PlanStep> steps = plan.stepsById();
        for (PlanStep step : plan.steps()) {
            tables.put(step.id(), step.accept(new StepBuilder(builder, tables, steps)));
        }
        PlanStep root = plan.root();
        if (plan.sink() != null) {
            writeOut(builder, plan, tables.get(root.id()));
        } else if (plan.index() != null) {
            keepAsIndex(builder, plan, tables.get(root.id()));
        } else {
            keepAsView(plan, tables.get(root.id()));
        }
        Properties properties = new Properties();
        // Source tables use their own topic as changelog instead of a copy.
        properties.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, StreamsConfig.OPTIMIZE);
        return builder.build(properties);
    }

    /** A view keeps its rows in a store for queries and writes its changes to its changelog topic. */
    private static void keepAsView(PhysicalPlan plan, KTable<Object[], Object[]> rows) {
        PlanStep root = plan.root();
        RowSerde keySerde = new RowSerde(root.key());
        RowSerde valueSerde = new RowSerde(root.schema().columns());
        KTable<Object[], Object[]> view = rows.mapValues(row -> row, Named.as("view-rows"),
            Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(plan.store())
                .withKeySerde(keySerde).withValueSerde(valueSerde));
        view.toStream(Named.as("view-changes"))
            .to(plan.outputTopic(), Produced.with(keySerde, valueSerde).withName("view-output"));
    }

    /** A sink encodes its changes and writes them to its topic, in the streams' transactions. */
    private static void writeOut(StreamsBuilder builder, PhysicalPlan plan, KTable<Object[], Object[]> rows) {
        PlanStep root = plan.root();
        builder.addStateStore(bytesStore(SinkEncoder.LAST_ROWS));
        rows.toStream(Named.as("sink-changes"))
            .process(() -> new SinkEncoder(plan.sink(), plan.view(), root.key(), root.schema().columns()),
                Named.as("sink-encode"), SinkEncoder.LAST_ROWS)
            .to(plan.sink().topic(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("sink-output"));
    }

    /** An index sends each row to where its indexed values are kept and stores it under them. */
    private static void keepAsIndex(StreamsBuilder builder, PhysicalPlan plan, KTable<Object[], Object[]> rows) {
        IndexKeys keys = new IndexKeys(plan);
        builder.addStateStore(bytesStore(IndexWriter.STORE));
        // A single-input exchange sends its changes as a join's left side does.
        exchange(builder, rows, plan.root(), "index", "index-values", "index-by-values", plan.index().partitions(),
            keys::prefixOfRow, JoinSide.LEFT::change)
            .process(IndexWriter::new, Named.as("index-write"), IndexWriter.STORE);
    }

    /**
     * A table's changes keyed by {@code prefixes} and sent over an {@link Exchange} to the partition
     * of their prefix: processors {@code <name>-changes} and {@code <name>-keys}, the store
     * {@code lastPrefixes} that remembers each row's last prefix, and the exchange {@code exchangeName}.
     */
    private static KStream<byte[], byte[]> exchange(StreamsBuilder builder, KTable<Object[], Object[]> rows,
                                                    PlanStep input, String name, String lastPrefixes,
                                                    String exchangeName, int partitions,
                                                    Function<Object[], byte[]> prefixes, UnaryOperator<byte[]> changes) {
        builder.addStateStore(bytesStore(lastPrefixes));
        RowCodec inputKeys = new RowCodec(input.key());
        RowCodec inputRows = new RowCodec(input.schema().columns());
        return rows.toStream(Named.as(name + "-changes"))
            .process(() -> new ExchangeKeyer(prefixes, changes, inputKeys, inputRows, lastPrefixes),
                Named.as(name + "-keys"), lastPrefixes)
            .repartition(Repartitioned.<byte[], byte[]>with(Serdes.ByteArray(), Serdes.ByteArray())
                .withName(exchangeName)
                .withNumberOfPartitions(partitions)
                .withStreamPartitioner(Exchange.partitioner()));
    }

    private static StoreBuilder<KeyValueStore<Bytes, byte[]>> bytesStore(String name) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray());
    }

    private record StepBuilder(StreamsBuilder builder, Map<String, KTable<Object[], Object[]>> tables,
                               Map<String, PlanStep> steps) implements PlanStepVisitor<KTable<Object[], Object[]>> {

        @Override
        public KTable<Object[], Object[]> visit(TableScanStep step) {
            RowSerde keySerde = new RowSerde(step.key());
            RowSerde valueSerde = new RowSerde(step.schema().columns());
            return builder.table(step.topic(), Consumed.with(keySerde, valueSerde).withName(step.id()),
                Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                    .withKeySerde(keySerde).withValueSerde(valueSerde));
        }

        @Override
        public KTable<Object[], Object[]> visit(SourceScanStep step) {
            Map<String, KStream<byte[], SourceDecoder.Decoded>> branches = builder
                .stream(step.topic(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(step.id() + "-records"))
                .processValues(() -> new SourceDecoder(step), Named.as(step.id() + "-decode"))
                .split(Named.as(step.id() + "-"))
                .branch((key, decoded) -> decoded.ok(), Branched.as("rows"))
                .defaultBranch(Branched.as("malformed"));
            branches.get(step.id() + "-malformed")
                .mapValues(SourceDecoder.Decoded::raw, Named.as(step.id() + "-raw"))
                .to(step.deadLetterTopic(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                    .withName(step.id() + "-dead-letters"));
            return branches.get(step.id() + "-rows")
                .map((key, decoded) -> KeyValue.pair(decoded.key(), decoded.row()), Named.as(step.id() + "-keyed"))
                .toTable(Named.as(step.id()),
                    Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                        .withKeySerde(new RowSerde(step.key())).withValueSerde(new RowSerde(step.schema().columns())));
        }

        @Override
        public KTable<Object[], Object[]> visit(CalcStep step) {
            PlanStep input = steps.get(step.input());
            CalcEvaluator evaluator = CalcEvaluator.of(step, input.schema());
            KTable<Object[], Object[]> table = tables.get(step.input());
            if (evaluator.hasCondition()) {
                table = table.filter((key, row) -> evaluator.test(row), Named.as(step.id() + "-filter"));
            }
            return table.mapValues(evaluator::project, Named.as(step.id() + "-project"));
        }

        @Override
        public KTable<Object[], Object[]> visit(AggregateStep step) {
            PlanStep input = steps.get(step.input());
            int[] groupBy = step.groupBy().stream().mapToInt(Integer::intValue).toArray();
            AggregateCall[] calls = step.aggregates().toArray(AggregateCall[]::new);
            List<Column> outputColumns = step.schema().columns();
            RowSerde groupKeySerde = new RowSerde(step.key());
            KTable<Object[], Accumulator> accumulators = tables.get(step.input())
                .groupBy((key, row) -> KeyValue.pair(project(row, groupBy), row),
                    Grouped.with(step.id() + "-by-group", groupKeySerde, new RowSerde(input.schema().columns())))
                .aggregate(() -> new Accumulator(calls.length),
                    (groupKey, row, accumulator) -> accumulator.plus(calls, row, 1),
                    (groupKey, row, accumulator) -> accumulator.plus(calls, row, -1),
                    Named.as(step.id() + "-aggregate"),
                    Materialized.<Object[], Accumulator, KeyValueStore<Bytes, byte[]>>as(step.id() + "-state")
                        .withKeySerde(groupKeySerde).withValueSerde(new AccumulatorSerde(calls.length)));
            boolean global = groupBy.length == 0;
            return accumulators.mapValues((groupKey, accumulator) -> {
                // A group without rows is gone; the single row of a global aggregate stays (count 0).
                if (accumulator.rows <= 0 && !global) {
                    return null;
                }
                Object[] row = new Object[outputColumns.size()];
                System.arraycopy(groupKey, 0, row, 0, groupKey.length);
                for (int i = 0; i < calls.length; i++) {
                    row[groupKey.length + i] = SqlValues.convert(accumulator.result(calls[i], i),
                        outputColumns.get(groupKey.length + i).type());
                }
                return row;
            }, Named.as(step.id() + "-result"));
        }

        @Override
        public KTable<Object[], Object[]> visit(UnionAllStep step) {
            RowSerde unionKeySerde = new RowSerde(step.key());
            RowSerde valueSerde = new RowSerde(step.schema().columns());
            KStream<Object[], Object[]> merged = null;
            for (int i = 0; i < step.inputs().size(); i++) {
                int input = i;
                PlanStep source = steps.get(step.inputs().get(i));
                Serializer<Object[]> inputKeys = new RowSerde(source.key()).serializer();
                KStream<Object[], Object[]> branch = tables.get(source.id())
                    .toStream(Named.as(step.id() + "-changes-" + i))
                    .map((key, row) -> KeyValue.pair(new Object[] {input, inputKeys.serialize(null, key)}, row),
                        Named.as(step.id() + "-key-" + i));
                merged = merged == null ? branch : merged.merge(branch, Named.as(step.id() + "-merge-" + i));
            }
            return merged.toTable(Named.as(step.id()),
                Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                    .withKeySerde(unionKeySerde).withValueSerde(valueSerde));
        }

        @Override
        public KTable<Object[], Object[]> visit(JoinStep step) {
            KStream<byte[], byte[]> left = joinSide(step, JoinSide.LEFT, step.left(), step.leftKeys());
            KStream<byte[], byte[]> right = joinSide(step, JoinSide.RIGHT, step.right(), step.rightKeys());
            String leftRows = JoinProcessor.storeName(step, JoinSide.LEFT);
            String rightRows = JoinProcessor.storeName(step, JoinSide.RIGHT);
            builder.addStateStore(bytesStore(leftRows));
            builder.addStateStore(bytesStore(rightRows));
            RowCodec leftCodec = new RowCodec(steps.get(step.left()).schema().columns());
            RowCodec rightCodec = new RowCodec(steps.get(step.right()).schema().columns());
            KStream<Object[], Object[]> joined = left.merge(right, Named.as(step.id() + "-merge"))
                .process(() -> new JoinProcessor(step, leftCodec, rightCodec), Named.as(step.id() + "-join"),
                    leftRows, rightRows);
            return rekeyedTable(joined, step);
        }

        @Override
        public KTable<Object[], Object[]> visit(TopNStep step) {
            PlanStep input = steps.get(step.input());
            RowCodec inputRows = new RowCodec(input.schema().columns());
            int[] groupColumns = step.partitionBy().stream().mapToInt(Integer::intValue).toArray();
            RowCodec groupCodec = new RowCodec(step.partitionBy().stream()
                .map(column -> input.schema().columns().get(column)).toList());
            builder.addStateStore(bytesStore(TopNProcessor.sortedStore(step)));
            builder.addStateStore(bytesStore(TopNProcessor.sortKeyStore(step)));
            SortKeys sortKeys = new SortKeys(step.orderBy(), input.schema().columns());
            // A single-input exchange sends its changes as a join's left side does.
            KStream<Object[], Object[]> top = exchange(builder, tables.get(step.input()), input, step.id(),
                step.id() + "-groups", step.id() + "-by-group", step.partitions(),
                row -> Exchange.prefix(groupCodec.encode(project(row, groupColumns)), true), JoinSide.LEFT::change)
                .process(() -> new TopNProcessor(step, sortKeys, inputRows), Named.as(step.id() + "-top"),
                    TopNProcessor.sortedStore(step), TopNProcessor.sortKeyStore(step));
            return rekeyedTable(top, step);
        }

        @Override
        public KTable<Object[], Object[]> visit(WindowStep step) {
            KTable<Object[], Object[]> input = tables.get(step.input());
            int time = step.timeColumn();
            if (step.kind() == WindowStep.WindowKind.TUMBLE) {
                return input.filter((key, row) -> row[time] != null, Named.as(step.id() + "-timed"))
                    .mapValues(row -> {
                        Object[] windowed = java.util.Arrays.copyOf(row, row.length + 2);
                        long start = step.latestStart((Long) row[time]);
                        windowed[row.length] = start;
                        windowed[row.length + 1] = start + step.sizeMillis();
                        return windowed;
                    }, Named.as(step.id() + "-windows"));
            }
            String lastTimes = step.id() + "-times";
            builder.addStateStore(bytesStore(lastTimes));
            RowCodec inputKeys = new RowCodec(steps.get(step.input()).key());
            return rekeyedTable(input.toStream(Named.as(step.id() + "-changes"))
                .process(() -> new HopExpander(step, inputKeys, lastTimes), Named.as(step.id() + "-windows"),
                    lastTimes), step);
        }

        /** One side of a join, keyed by join key and sent to the partition where its matches are. */
        private KStream<byte[], byte[]> joinSide(JoinStep step, JoinSide side, String inputId, List<Integer> keys) {
            String name = step.id() + "-" + side.name().toLowerCase(java.util.Locale.ROOT);
            JoinKeys joinKeys = new JoinKeys(keys, step.joinKey(), step.nullSafe());
            return exchange(builder, tables.get(inputId), steps.get(inputId), name, name + "-join-keys",
                name + "-by-join-key", step.partitions(), joinKeys::prefix, side::change);
        }

        /**
         * The table of a step whose processor gives rows new keys. Each key comes from one task only,
         * so no exchange is needed, but Kafka Streams puts one before any table of a re-keyed stream;
         * it is made explicit here so that it is named from the step, like everything else.
         */
        private static KTable<Object[], Object[]> rekeyedTable(KStream<Object[], Object[]> rows, PlanStep step) {
            RowSerde keySerde = new RowSerde(step.key());
            RowSerde valueSerde = new RowSerde(step.schema().columns());
            return rows.repartition(Repartitioned.with(keySerde, valueSerde).withName(step.id() + "-rows"))
                .toTable(Named.as(step.id()),
                    Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                        .withKeySerde(keySerde).withValueSerde(valueSerde));
        }

        private static Object[] project(Object[] row, int[] columns) {
            Object[] projected = new Object[columns.length];
            for (int i = 0; i < columns.length; i++) {
                projected[i] = row[columns[i]];
            }
            return projected;
        }
    }
}
