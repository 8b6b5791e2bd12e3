package io.kafkamv.compiler.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.kafkamv.compiler.CompiledView;
import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.runtime.HeldBackOffsets;
import io.kafkamv.compiler.topology.internal.PartialAggregator;
import io.kafkamv.connectors.row.RowSerde;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * Compiles a view over in-test tables and runs it in Kafka's TopologyTestDriver: tables take
 * upserts and deletes by key, the view's contents are read back from its output topic.
 */
public final class ViewHarness implements AutoCloseable {

    private static final java.util.concurrent.atomic.AtomicLong HARNESSES = new java.util.concurrent.atomic.AtomicLong();

    private final Map<String, Relation> relations = new LinkedHashMap<>();
    private final Map<String, TestInputTopic<Object[], Object[]>> inputs = new HashMap<>();
    private final Map<Bytes, Object[]> viewRows = new LinkedHashMap<>();
    private TopologyTestDriver driver;
    private TestOutputTopic<Object[], Object[]> output;
    private RowSerde outputKeySerde;
    private CompiledView view;
    private final List<String> evaluationErrors = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Kafka Streams' record caches, as the service runs views; off unless a test asks, so each change shows at once. */
    private boolean recordCaches;
    private int changesSeen;

    /** A table keyed by its primary key columns. */
    public ViewHarness table(String name, List<String> primaryKey, Column... columns) {
        RowSchema schema = new RowSchema(List.of(columns), primaryKey);
        List<Column> key = primaryKey.stream().map(k -> schema.column(k).orElseThrow()).toList();
        relations.put(name, new Relation(name, schema, key, "kmv-table-" + name));
        return this;
    }

    /** A table without a primary key: rows are only ever inserted, each under a new row id. */
    public ViewHarness appendOnlyTable(String name, Column... columns) {
        relations.put(name, new Relation(name, new RowSchema(List.of(columns), List.of()), List.of(Relation.ROW_ID),
            "kmv-table-" + name));
        return this;
    }

    /** Makes a relation readable by the view, e.g. another view's, whose changes are then piped with upsert and delete. */
    public ViewHarness relation(Relation relation) {
        relations.put(relation.name(), relation);
        return this;
    }

    /** Inserts a row into a table without a primary key. */
    public ViewHarness insert(String table, long rowId, Object... row) {
        if (inputs.containsKey(table)) {
            inputs.get(table).pipeInput(new Object[] {rowId}, row);
        }
        return this;
    }

    /** Runs the view with Kafka Streams' record caches, as the service does (the driver flushes them after each record). */
    public ViewHarness withRecordCaches() {
        recordCaches = true;
        return this;
    }

    /** How many records the view's topic has carried so far, tombstones included. */
    public int changesSeen() {
        rowsSoFar();
        return changesSeen;
    }

    public CompiledView view(String sql) {
        var statement = (SqlCreateMaterializedView) SqlStatementParser.parse(sql);
        view = new SqlCompiler(() -> relations.values(), 1).compileView(statement, sql, 1001);
        Properties properties = new Properties();
        // Each harness its own application id, so that harnesses open at once keep separate state dirs.
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "view-test-" + HARNESSES.incrementAndGet());
        if (!recordCaches) {
            properties.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        }
        driver = new TopologyTestDriver(TopologyFactory.build(view.plan(),
            (stepId, what, error) -> evaluationErrors.add(what + ": " + error.getMessage())), properties);
        for (Relation relation : relations.values()) {
            if (view.plan().sourceTopics().contains(relation.topic()) || view.plan().lookupTopics().contains(relation.topic())) {
                inputs.put(relation.name(), driver.createInputTopic(relation.topic(),
                    new RowSerde(relation.key()).serializer(), new RowSerde(relation.schema().columns()).serializer()));
            }
        }
        outputKeySerde = new RowSerde(view.relation().key());
        output = driver.createOutputTopic(view.plan().outputTopic(), outputKeySerde.deserializer(),
            new RowSerde(view.relation().schema().columns()).deserializer());
        return view;
    }

    /** Writes a row to a table; a table the view does not read is skipped. */
    public ViewHarness upsert(String table, Object... row) {
        Relation relation = relations.get(table);
        Object[] key = relation.key().stream()
            .map(column -> row[relation.schema().columns().indexOf(column)])
            .toArray();
        if (inputs.containsKey(table)) {
            inputs.get(table).pipeInput(key, row);
        }
        return this;
    }

    public ViewHarness delete(String table, Object... key) {
        if (inputs.containsKey(table)) {
            inputs.get(table).pipeInput(key, (Object[]) null);
        }
        return this;
    }

    /**
     * The view's rows once its partial aggregates have been sent on (time passes as long as that
     * takes), in no particular order, each as a list. They are checked to be what a query reads from the view's
     * store ({@link #storedRows}) too, with or without record caches (the driver flushes them after each record).
     */
    public List<List<Object>> rows() {
        driver.advanceWallClockTime(PartialAggregator.MAX_HOLD);
        List<List<Object>> rows = rowsSoFar();
        // Compared value by value: a bytea column's arrays are equal by content only.
        org.assertj.core.api.Assertions.assertThat(storedRows()).as("the rows queries read from the view's store")
            .usingElementComparator((a, b) -> Arrays.deepEquals(a.toArray(), b.toArray()) ? 0 : 1)
            .containsExactlyInAnyOrderElementsOf(rows);
        return rows;
    }

    /** The values the view could not compute so far, each as "column: error". */
    public List<String> evaluationErrors() {
        return List.copyOf(evaluationErrors);
    }

    /** Lets wall-clock time pass, as partial aggregates see it. */
    public ViewHarness advance(java.time.Duration time) {
        driver.advanceWallClockTime(time);
        return this;
    }

    /** The view's rows as its output has them now, without letting time pass for partials to flush. */
    public List<List<Object>> rowsSoFar() {
        return rowsPipedTo(null);
    }

    /**
     * The view's rows, as {@link #rows()}; and the changes that led there since the last look go on to
     * {@code downstream}, a view over this one, as this view's topic would carry them to it.
     */
    public List<List<Object>> rowsPipedTo(ViewHarness downstream) {
        if (downstream != null) {
            driver.advanceWallClockTime(PartialAggregator.MAX_HOLD);
        }
        output.readKeyValuesToList().forEach(record -> {
            changesSeen++;
            Bytes key = Bytes.wrap(outputKeySerde.serializer().serialize(null, record.key));
            if (record.value == null) {
                viewRows.remove(key);
            } else {
                viewRows.put(key, record.value);
            }
            if (downstream != null && downstream.inputs.containsKey(view.relation().name())) {
                downstream.inputs.get(view.relation().name()).pipeInput(record.key, record.value);
            }
        });
        List<List<Object>> rows = new ArrayList<>();
        viewRows.values().forEach(row -> rows.add(Arrays.asList(row)));
        return rows;
    }

    /** What the view's partial aggregates hold back: the first offset per input partition (see HeldBackOffsets). */
    public Map<String, Long> heldBack() {
        Map<String, Long> heldBack = new HashMap<>();
        driver.getAllStateStores().forEach((name, store) -> {
            if (name.endsWith("-pending")) {
                Object value = driver.<String, String>getKeyValueStore(name).get(HeldBackOffsets.KEY);
                heldBack.putAll(HeldBackOffsets.decode((String) value));
            }
        });
        return heldBack;
    }

    /**
     * The rows in the view's store, read as queries read them ({@link EncodedViewStore}), in no particular order (see
     * {@link #rows()}).
     */
    public List<List<Object>> storedRows() {
        driver.advanceWallClockTime(PartialAggregator.MAX_HOLD);
        List<List<Object>> rows = new ArrayList<>();
        EncodedViewStore.Partition store = encodedStore();
        try (var all = store.all()) {
            all.forEachRemaining(entry -> {
                Object[] row = store.row(entry, null);
                if (row != null) {
                    rows.add(Arrays.asList(row));
                }
            });
        }
        return rows;
    }

    /** The view's store partition as {@link EncodedViewStore} reads it, as queries do. */
    public EncodedViewStore.Partition encodedStore() {
        org.apache.kafka.streams.processor.StateStore store = driver.getAllStateStores().get(view.plan().store());
        if (!new EncodedViewStore(view.plan()).accepts(store)) {
            throw new AssertionError("EncodedViewStore does not accept the view's store " + store.getClass().getName());
        }
        return EncodedViewStore.of(store, view.plan());
    }

    @Override
    public void close() {
        if (driver != null) {
            driver.close();
        }
    }
}
