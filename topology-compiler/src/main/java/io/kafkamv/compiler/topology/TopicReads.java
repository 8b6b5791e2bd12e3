package io.kafkamv.compiler.topology;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.plan.StepOutput;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;

/**
 * How the plans built into one topology read each topic. Kafka Streams lets a topic be the source of one node
 * only, so a topic is read once: the first plan's step that scans it is built, and every other plan whose step
 * scans it the same way (the same step but for its id, producing the same) takes that step's rows. A step that
 * would read an already read topic another way cannot be built into this topology.
 */
final class TopicReads {

    /** A built scan: its table, built the first time a plan asks for it, and its stream of inserts, if it offers one. */
    record Scan(Lazy<KTable<Object[], Object[]>> table, Lazy<KStream<Object[], Object[]>> inserts) {
    }

    private record ScanKind(PlanStep step, StepOutput output) {
    }

    private final Map<String, ScanKind> kinds = new HashMap<>();
    private final Map<String, Scan> scans = new HashMap<>();
    /** The store of each looked-up table's topic, however many steps of however many plans look it up. */
    private final Map<String, String> lookupTables = new HashMap<>();

    /** The scan of {@code topic} by {@code step}: built by {@code build} for the first plan to read the topic. */
    Scan scan(String topic, PlanStep step, StepOutput output, Supplier<Scan> build) {
        ScanKind kind = new ScanKind(step.renamed(id -> ""), output);
        ScanKind first = kinds.putIfAbsent(topic, kind);
        if (first != null && !first.equals(kind)) {
            throw new IllegalArgumentException("topic " + topic + " is already read another way in this topology (step "
                + step.id() + ")");
        }
        return scans.computeIfAbsent(topic, any -> build.get());
    }

    /** The store that keeps the table of {@code topic} for lookups: added by {@code add} the first time. */
    String lookupTable(String topic, Supplier<String> add) {
        return lookupTables.computeIfAbsent(topic, any -> add.get());
    }
}
