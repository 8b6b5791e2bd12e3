package io.kafkamv.compiler.topology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.Supplier;
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
import io.kafkamv.compiler.plan.UnionAllStep;
import io.kafkamv.compiler.plan.WindowStep;
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
import org.apache.kafka.streams.kstream.ValueMapper;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a view's Kafka Streams topology from its stored plan, never from its SQL. Every
 * processor, store and internal topic is named after its plan step, so names stay the same across
 * versions of kafka-mv and a running view can be restarted on a newer one.
 */
public final class TopologyFactory {

    private static final Logger LOG = LoggerFactory.getLogger(TopologyFactory.class);

    private TopologyFactory() {
    }

    /** From this plan version on, rows that are only ever inserted flow as streams where they can. */
    static final int INSERT_STREAMS_VERSION = 2;
    /**
     * From this plan version on, rows that are only ever inserted cross exchanges without a table of
     * them: aggregations send partial aggregates, joins and top-N the rows as they come.
     */
    static final int INSERT_EXCHANGES_VERSION = 3;

    /** A topology to describe; a value it cannot compute is logged, each time. */
    public static Topology build(PhysicalPlan plan) {
        return build(plan, (stepId, what, error) -> LOG.warn("{}: {} could not be computed for a row, it is null: {}",
            stepId, what, error.toString()));
    }

    /** A topology to run: values it cannot compute for a row go to {@code errors}. */
    public static Topology build(PhysicalPlan plan, EvaluationErrors errors) {
        StreamsBuilder builder = new StreamsBuilder();
        Map<String, Lazy<KTable<Object[], Object[]>>> tables = new HashMap<>();
        Map<String, Lazy<KStream<Object[], Object[]>>> inserts = new HashMap<>();
        Map<String, PlanStep> steps = plan.stepsById();
        boolean insertStreams = plan.version() >= INSERT_STREAMS_VERSION;
        for (PlanStep step : plan.steps()) {
            Lazy<KTable<Object[], Object[]>> table = new Lazy<>(
                step.accept(new StepBuilder(builder, tables, inserts, steps, insertStreams,
                    plan.version() >= INSERT_EXCHANGES_VERSION, errors)));
            tables.put(step.id(), table);
            // A step that also offers its rows as a stream builds its table only if a later step asks for it;
            // every other step is built here, in plan order, as plans of version 1 always were.
            if (!inserts.containsKey(step.id())) {
                table.get();
            }
        }
        PlanStep root = plan.root();
        if (plan.sink() != null) {
            writeOut(builder, plan, tables.get(root.id()).get());
        } else if (plan.index() != null) {
            keepAsIndex(builder, plan, tables.get(root.id()).get());
        } else if (inserts.containsKey(root.id())) {
            keepInsertsAsView(builder, plan, inserts.get(root.id()).get());
        } else {
            keepAsView(plan, tables.get(root.id()).get());
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

    /** A view of rows that are only ever inserted keeps them as they come, without a table in between. */
    private static void keepInsertsAsView(StreamsBuilder builder, PhysicalPlan plan, KStream<Object[], Object[]> rows) {
        PlanStep root = plan.root();
        RowSerde keySerde = new RowSerde(root.key());
        RowSerde valueSerde = new RowSerde(root.schema().columns());
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(plan.store()), keySerde, valueSerde));
        rows.process(() -> new ViewAppender(plan.store()), Named.as("view-rows"), plan.store())
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
            .repartition(exchangeTopic(exchangeName, partitions));
    }

    /** The topic of an {@link Exchange}: keyed by prefix, partitioned by it over the plan's partitions. */
    private static Repartitioned<byte[], byte[]> exchangeTopic(String name, int partitions) {
        return Repartitioned.<byte[], byte[]>with(Serdes.ByteArray(), Serdes.ByteArray())
            .withName(name)
            .withNumberOfPartitions(partitions)
            .withStreamPartitioner(Exchange.partitioner());
    }

    private static StoreBuilder<KeyValueStore<Bytes, byte[]>> bytesStore(String name) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray());
    }

    /** A part of the topology built the first time it is asked for, and only then. */
    private static final class Lazy<T> implements Supplier<T> {
        private Supplier<T> build;
        private T built;

        Lazy(Supplier<T> build) {
            this.build = build;
        }

        @Override
        public T get() {
            if (build != null) {
                built = build.get();
                build = null;
            }
            return built;
        }
    }

    /** A topic read once, as a table or as a stream, whichever is asked for first; the other is made from it. */
    private static final class TopicRows {
        private final Supplier<KTable<Object[], Object[]>> readTable;
        private final Function<KTable<Object[], Object[]>, KStream<Object[], Object[]>> tableToStream;
        private final Supplier<KStream<Object[], Object[]>> readStream;
        private final Function<KStream<Object[], Object[]>, KTable<Object[], Object[]>> streamToTable;
        private KTable<Object[], Object[]> table;
        private KStream<Object[], Object[]> stream;

        TopicRows(Supplier<KTable<Object[], Object[]>> readTable,
                  Function<KTable<Object[], Object[]>, KStream<Object[], Object[]>> tableToStream,
                  Supplier<KStream<Object[], Object[]>> readStream,
                  Function<KStream<Object[], Object[]>, KTable<Object[], Object[]>> streamToTable) {
            this.readTable = readTable;
            this.tableToStream = tableToStream;
            this.readStream = readStream;
            this.streamToTable = streamToTable;
        }

        KTable<Object[], Object[]> table() {
            if (table == null) {
                table = stream != null ? streamToTable.apply(stream) : readTable.get();
            }
            return table;
        }

        KStream<Object[], Object[]> stream() {
            if (stream == null) {
                stream = table != null ? tableToStream.apply(table) : readStream.get();
            }
            return stream;
        }
    }

    /**
     * Builds each step as a supplier of its table. A step whose rows are only ever inserted (an
     * append-only source, and calculations and tumbling windows over one) also registers them as a
     * stream in {@code inserts}, so that an aggregation or a view over them can skip the table; with
     * {@code insertExchanges}, aggregations, joins and top-N over them skip it too.
     */
    private record StepBuilder(StreamsBuilder builder, Map<String, Lazy<KTable<Object[], Object[]>>> tables,
                               Map<String, Lazy<KStream<Object[], Object[]>>> inserts,
                               Map<String, PlanStep> steps, boolean insertStreams, boolean insertExchanges,
                               EvaluationErrors errors)
        implements PlanStepVisitor<Supplier<KTable<Object[], Object[]>>> {

        private KTable<Object[], Object[]> table(String stepId) {
            return tables.get(stepId).get();
        }

        private boolean appendOnly(String stepId) {
            return insertStreams && inserts.containsKey(stepId);
        }

        @Override
        public Supplier<KTable<Object[], Object[]>> visit(TableScanStep step) {
            RowSerde keySerde = new RowSerde(step.key());
            RowSerde valueSerde = new RowSerde(step.schema().columns());
            Materialized<Object[], Object[], KeyValueStore<Bytes, byte[]>> store =
                Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                    .withKeySerde(keySerde).withValueSerde(valueSerde);
            if (!insertStreams || !step.appendOnly()) {
                return () -> builder.table(step.topic(), Consumed.with(keySerde, valueSerde).withName(step.id()), store);
            }
            TopicRows rows = new TopicRows(
                () -> builder.table(step.topic(), Consumed.with(keySerde, valueSerde).withName(step.id()), store),
                table -> table.toStream(Named.as(step.id() + "-inserts")),
                () -> builder.stream(step.topic(), Consumed.with(keySerde, valueSerde).withName(step.id() + "-inserts")),
                stream -> stream.toTable(Named.as(step.id()), store));
            inserts.put(step.id(), new Lazy<>(rows::stream));
            return rows::table;
        }

        @Override
        public Supplier<KTable<Object[], Object[]>> visit(SourceScanStep step) {
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
            KStream<Object[], Object[]> keyed = branches.get(step.id() + "-rows")
                .map((key, decoded) -> KeyValue.pair(decoded.key(), decoded.row()), Named.as(step.id() + "-keyed"));
            if (insertStreams && step.schema().appendOnly()) {
                inserts.put(step.id(), new Lazy<>(() -> keyed));
            }
            return () -> keyed.toTable(Named.as(step.id()),
                Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                    .withKeySerde(new RowSerde(step.key())).withValueSerde(new RowSerde(step.schema().columns())));
        }

        @Override
        public Supplier<KTable<Object[], Object[]>> visit(CalcStep step) {
            PlanStep input = steps.get(step.input());
            CalcEvaluator evaluator = CalcEvaluator.of(step, input.schema(), errors);
            if (appendOnly(step.input())) {
                inserts.put(step.id(), new Lazy<>(() -> {
                    KStream<Object[], Object[]> rows = inserts.get(step.input()).get();
                    if (evaluator.hasCondition()) {
                        rows = rows.filter((key, row) -> evaluator.test(row), Named.as(step.id() + "-insert-filter"));
                    }
                    return rows.mapValues(evaluator::project, Named.as(step.id() + "-insert-project"));
                }));
            }
            return () -> {
                KTable<Object[], Object[]> table = table(step.input());
                if (evaluator.hasCondition()) {
                    table = table.filter((key, row) -> evaluator.test(row), Named.as(step.id() + "-filter"));
                }
                return table.mapValues(evaluator::project, Named.as(step.id() + "-project"));
            };
        }

        @Override
        public Supplier<KTable<Object[], Object[]>> visit(AggregateStep step) {
            return () -> appendOnly(step.input()) ? insertsAggregated(step) : aggregated(step);
        }

        /** Every change of the input goes to its group's partition, where rows are added and retracted. */
        private KTable<Object[], Object[]> aggregated(AggregateStep step) {
            int[] groupBy = step.groupBy().stream().mapToInt(Integer::intValue).toArray();
            AggregateCall[] calls = step.aggregates().toArray(AggregateCall[]::new);
            KTable<Object[], Accumulator> accumulators = table(step.input())
                .groupBy((key, row) -> KeyValue.pair(project(row, groupBy), row), byGroup(step))
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
            if (insertExchanges) {
                return partiallyAggregated(step);
            }
            int[] groupBy = step.groupBy().stream().mapToInt(Integer::intValue).toArray();
            AggregateCall[] calls = step.aggregates().toArray(AggregateCall[]::new);
            KTable<Object[], Accumulator> accumulators = inserts.get(step.input()).get()
                .groupBy((key, row) -> project(row, groupBy), byGroup(step))
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
            builder.addStateStore(PartialAggregator.partialsStoreBuilder(step));
            builder.addStateStore(PartialAggregator.pendingStoreBuilder(step));
            KTable<Object[], Accumulator> accumulators = inserts.get(step.input()).get()
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
                new RowSerde(steps.get(step.input()).schema().columns()));
        }

        /** The store of an aggregation's accumulators, one per group. */
        private static Materialized<Object[], Accumulator, KeyValueStore<Bytes, byte[]>> state(AggregateStep step) {
            return Materialized.<Object[], Accumulator, KeyValueStore<Bytes, byte[]>>as(step.id() + "-state")
                .withKeySerde(new RowSerde(step.key())).withValueSerde(new AccumulatorSerde(step.aggregates().size()));
        }

        private KTable<Object[], Object[]> results(AggregateStep step, KTable<Object[], Accumulator> accumulators) {
            AggregateCall[] calls = step.aggregates().toArray(AggregateCall[]::new);
            List<Column> outputColumns = step.schema().columns();
            boolean global = step.groupBy().isEmpty();
            return accumulators.mapValues((groupKey, accumulator) -> {
                // A group without rows is gone; the single row of a global aggregate stays (count 0).
                if (accumulator.rows <= 0 && !global) {
                    return null;
                }
                Object[] row = new Object[outputColumns.size()];
                System.arraycopy(groupKey, 0, row, 0, groupKey.length);
                for (int i = 0; i < calls.length; i++) {
                    Column column = outputColumns.get(groupKey.length + i);
                    try {
                        row[groupKey.length + i] = SqlValues.convert(accumulator.result(calls[i], i), column.type());
                    } catch (ArithmeticException e) {
                        errors.report(step.id(), column.name(), e);
                    }
                }
                return row;
            }, Named.as(step.id() + "-result"));
        }

        @Override
        public Supplier<KTable<Object[], Object[]>> visit(UnionAllStep step) {
            return () -> unionAll(step);
        }

        private KTable<Object[], Object[]> unionAll(UnionAllStep step) {
            RowSerde unionKeySerde = new RowSerde(step.key());
            RowSerde valueSerde = new RowSerde(step.schema().columns());
            KStream<Object[], Object[]> merged = null;
            for (int i = 0; i < step.inputs().size(); i++) {
                int input = i;
                PlanStep source = steps.get(step.inputs().get(i));
                Serializer<Object[]> inputKeys = new RowSerde(source.key()).serializer();
                KStream<Object[], Object[]> branch = table(source.id())
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
        public Supplier<KTable<Object[], Object[]>> visit(JoinStep step) {
            return () -> join(step);
        }

        private KTable<Object[], Object[]> join(JoinStep step) {
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
        public Supplier<KTable<Object[], Object[]>> visit(TopNStep step) {
            return () -> topN(step);
        }

        private KTable<Object[], Object[]> topN(TopNStep step) {
            PlanStep input = steps.get(step.input());
            RowCodec inputRows = new RowCodec(input.schema().columns());
            int[] groupColumns = step.partitionBy().stream().mapToInt(Integer::intValue).toArray();
            RowCodec groupCodec = new RowCodec(step.partitionBy().stream()
                .map(column -> input.schema().columns().get(column)).toList());
            builder.addStateStore(bytesStore(TopNProcessor.sortedStore(step)));
            builder.addStateStore(bytesStore(TopNProcessor.sortKeyStore(step)));
            SortKeys sortKeys = new SortKeys(step.orderBy(), input.schema().columns());
            // A single-input exchange sends its changes as a join's left side does.
            KStream<Object[], Object[]> top = exchangeOf(step.input(), step.id(),
                step.id() + "-groups", step.id() + "-by-group", step.partitions(),
                row -> Exchange.prefix(groupCodec.encode(project(row, groupColumns)), true), JoinSide.LEFT::change)
                .process(() -> new TopNProcessor(step, sortKeys, inputRows), Named.as(step.id() + "-top"),
                    TopNProcessor.sortedStore(step), TopNProcessor.sortKeyStore(step));
            return rekeyedTable(top, step);
        }

        @Override
        public Supplier<KTable<Object[], Object[]>> visit(WindowStep step) {
            int time = step.timeColumn();
            ValueMapper<Object[], Object[]> tumble = row -> {
                Object[] windowed = java.util.Arrays.copyOf(row, row.length + 2);
                long start = step.latestStart((Long) row[time]);
                windowed[row.length] = start;
                windowed[row.length + 1] = start + step.sizeMillis();
                return windowed;
            };
            if (step.kind() == WindowStep.WindowKind.TUMBLE && appendOnly(step.input())) {
                inserts.put(step.id(), new Lazy<>(() -> inserts.get(step.input()).get()
                    .filter((key, row) -> row[time] != null, Named.as(step.id() + "-insert-timed"))
                    .mapValues(tumble, Named.as(step.id() + "-insert-windows"))));
            }
            return () -> window(step, tumble);
        }

        private KTable<Object[], Object[]> window(WindowStep step, ValueMapper<Object[], Object[]> tumble) {
            KTable<Object[], Object[]> input = table(step.input());
            int time = step.timeColumn();
            if (step.kind() == WindowStep.WindowKind.TUMBLE) {
                return input.filter((key, row) -> row[time] != null, Named.as(step.id() + "-timed"))
                    .mapValues(tumble, Named.as(step.id() + "-windows"));
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
            return exchangeOf(inputId, name, name + "-join-keys", name + "-by-join-key", step.partitions(),
                joinKeys::prefix, side::change);
        }

        /**
         * An input's changes keyed for an {@link Exchange} (see the static {@code exchange}). Rows that
         * are only ever inserted never move to another prefix, so they go as they come: no table of them
         * and no store of their last prefixes.
         */
        private KStream<byte[], byte[]> exchangeOf(String inputId, String name, String lastPrefixes, String exchangeName,
                                                   int partitions, Function<Object[], byte[]> prefixes,
                                                   UnaryOperator<byte[]> changes) {
            PlanStep input = steps.get(inputId);
            if (!insertExchanges || !appendOnly(inputId)) {
                return exchange(builder, table(inputId), input, name, lastPrefixes, exchangeName, partitions, prefixes,
                    changes);
            }
            RowCodec inputKeys = new RowCodec(input.key());
            RowCodec inputRows = new RowCodec(input.schema().columns());
            return inserts.get(inputId).get()
                .map((key, row) -> KeyValue.pair(Exchange.compose(prefixes.apply(row), inputKeys.encode(key)),
                    changes.apply(inputRows.encode(row))), Named.as(name + "-keys"))
                .repartition(exchangeTopic(exchangeName, partitions));
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
