package io.kafkamv.compiler.topology;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

import io.kafkamv.compiler.plan.LookupJoinStep;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.plan.StepOutput;
import io.kafkamv.compiler.runtime.EvaluationErrors;
import io.kafkamv.compiler.topology.internal.LookupTableUpdater;
import io.kafkamv.compiler.topology.internal.SkipBelow;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * What the builders of one plan's steps share while its topology is built: the Streams builder, each
 * step's table (built the first time a later step asks for it), and, for a step whose rows are only
 * ever inserted, the stream of them, which a later step may take instead of the table. Several plans
 * may be built into one topology, each under a prefix of its own names, reading each topic once
 * ({@link TopicReads}).
 */
final class BuildContext {

    private final StreamsBuilder builder;
    private final TopicReads reads;
    private final String prefix;
    private final PhysicalPlan plan;
    private final EvaluationErrors errors;
    /** Where this plan's reading of shared topics begins, by {@code topic:partition} ({@link SkipBelow}). */
    private final Map<String, Long> readFrom;
    private final Map<String, Lazy<KTable<Object[], Object[]>>> tables = new HashMap<>();
    private final Map<String, Lazy<KStream<Object[], Object[]>>> appendOnlyStreams = new HashMap<>();

    /** {@code plan} with its names under {@code prefix}: "" for a plan built alone, as plans always were. */
    BuildContext(StreamsBuilder builder, TopicReads reads, String prefix, PhysicalPlan plan, EvaluationErrors errors) {
        this(builder, reads, prefix, plan, errors, Map.of());
    }

    /** ... reading the topics it shares with other plans from {@code readFrom} on ({@link SkipBelow}). */
    BuildContext(StreamsBuilder builder, TopicReads reads, String prefix, PhysicalPlan plan, EvaluationErrors errors,
                 Map<String, Long> readFrom) {
        this.builder = builder;
        this.reads = reads;
        this.prefix = prefix;
        this.plan = prefix.isEmpty() ? plan : plan.prefixed(prefix);
        this.errors = errors;
        this.readFrom = Map.copyOf(readFrom);
    }

    StreamsBuilder builder() {
        return builder;
    }

    /** The plan as built: its steps and store named under the prefix. */
    PhysicalPlan plan() {
        return plan;
    }

    /** A name of this plan's that no step gives it (its outputs'), under its prefix. */
    String name(String name) {
        return prefix + name;
    }

    /**
     * The table of a step that reads {@code topic}, built by {@code build}; or, when another plan of the same
     * topology already reads the topic the same way, that plan's, and its stream of inserts too.
     */
    Supplier<KTable<Object[], Object[]>> scan(PlanStep step, String topic,
                                              Supplier<Supplier<KTable<Object[], Object[]>>> build) {
        TopicReads.Scan scan = reads.scan(topic, step, plan.output(step.id()), () -> {
            Lazy<KTable<Object[], Object[]>> table = new Lazy<>(build.get());
            // Offered by the builder, if the step's rows are inserts.
            return new TopicReads.Scan(table, appendOnlyStreams.get(step.id()));
        });
        Map<String, Long> from = new HashMap<>();
        readFrom.forEach((partition, offset) -> {
            if (partition.substring(0, partition.lastIndexOf(':')).equals(topic)) {
                from.put(partition, offset);
            }
        });
        if (from.isEmpty()) {
            if (scan.inserts() != null) {
                appendOnlyStreams.put(step.id(), scan.inserts());
            }
            return scan.table();
        }
        // Only a stream of inserts can leave rows out: a table's changes carry the value each replaces.
        if (scan.inserts() == null || !producesInserts(step.id())) {
            throw new IllegalArgumentException("step " + step.id() + " reads " + topic + " as a table: it cannot begin "
                + "at other offsets than the topology's reading of it");
        }
        Lazy<KStream<Object[], Object[]>> inserts = scan.inserts();
        appendOnlyStreams.put(step.id(), new Lazy<>(() -> inserts.get().processValues(() -> new SkipBelow(from),
            Named.as(step.id() + "-skip-below"))));
        return () -> {
            throw new IllegalArgumentException("step " + step.id() + " reads " + topic + " as a table: it cannot begin "
                + "at other offsets than the topology's reading of it");
        };
    }

    PlanStep step(String stepId) {
        return plan.stepsById().get(stepId);
    }

    /** Whether the plan says the step produces inserts, offered as a stream (see {@link StepOutput}). */
    boolean producesInserts(String stepId) {
        return plan.output(stepId) == StepOutput.INSERTS;
    }

    /** Whether inserts cross exchanges as they come, without a table of them (plans from version 3). */
    boolean insertExchanges() {
        return plan.version() >= PhysicalPlan.INSERT_EXCHANGES_VERSION;
    }

    EvaluationErrors errors() {
        return errors;
    }

    /** The step's rows as a table, built now if no step asked for it before. */
    KTable<Object[], Object[]> table(String stepId) {
        return tables.get(stepId).get();
    }

    Lazy<KTable<Object[], Object[]>> addTable(String stepId, Supplier<KTable<Object[], Object[]>> table) {
        Lazy<KTable<Object[], Object[]>> lazy = new Lazy<>(table);
        tables.put(stepId, lazy);
        return lazy;
    }

    /** The stream of an append-only step's rows, built now if no step asked for it before. */
    KStream<Object[], Object[]> stream(String stepId) {
        return appendOnlyStreams.get(stepId).get();
    }

    /** Offers the step's rows as a stream too, for later steps that need no table of them. */
    void offerStream(String stepId, Supplier<KStream<Object[], Object[]>> stream) {
        if (!producesInserts(stepId)) {
            throw new IllegalStateException("step " + stepId + " produces changes, not a stream of inserts");
        }
        appendOnlyStreams.put(stepId, new Lazy<>(stream));
    }

    /**
     * The name of the store that keeps the whole table a lookup join reads, on every instance: added with the
     * first step that looks the table up, named after it.
     */
    String lookupTable(LookupJoinStep step) {
        return reads.lookupTable(step.topic(), () -> {
            String store = step.id() + "-table";
            builder.addGlobalStore(bytesStore(store).withLoggingDisabled(), step.topic(),
                Consumed.with(Serdes.Bytes(), Serdes.ByteArray()).withName(step.id() + "-table-records"),
                () -> new LookupTableUpdater(store));
            return store;
        });
    }

    /** A persistent store of bytes by bytes, added to the topology for the processors that name it. */
    void addBytesStore(String name) {
        builder.addStateStore(bytesStore(name));
    }

    static StoreBuilder<KeyValueStore<Bytes, byte[]>> bytesStore(String name) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray());
    }
}
