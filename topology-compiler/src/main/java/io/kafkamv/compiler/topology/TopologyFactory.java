package io.kafkamv.compiler.topology;

import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.runtime.EvaluationErrors;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.KTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a view's Kafka Streams topology from its stored plan, never from its SQL. Every
 * processor, store and internal topic is named after its plan step, so names stay the same across
 * versions of kafka-mv and a running view can be restarted on a newer one.
 *
 * <p>Each step kind has a builder of its own ({@link StepBuilders}); they share a {@link BuildContext},
 * and what crosses partitions is built by {@link Exchanges}. The plan's last step becomes a view, a
 * sink or an index ({@link PlanOutputs}). Whether a step's rows are a stream of inserts or a table of
 * changes is the plan's word ({@link PhysicalPlan#output}), not the builders'.
 */
public final class TopologyFactory {

    private static final Logger LOG = LoggerFactory.getLogger(TopologyFactory.class);

    private TopologyFactory() {
    }

    /** A topology to describe; a value it cannot compute is logged, each time. */
    public static Topology build(PhysicalPlan plan) {
        return build(plan, (stepId, what, error) -> LOG.warn("{}: {} could not be computed for a row, it is null: {}",
            stepId, what, error.toString()));
    }

    /** A topology to run: values it cannot compute for a row go to {@code errors}. */
    public static Topology build(PhysicalPlan plan, EvaluationErrors errors) {
        StreamsBuilder builder = new StreamsBuilder();
        addTo(builder, new BuildContext(builder, new TopicReads(), "", plan, errors));
        return builder.build(optimized());
    }

    /**
     * The views of {@code plans} in one topology, each plan's processors, stores and internal topics named under
     * its prefix: a view's store named {@code s} alone is {@code <prefix>s} here, so that in the application
     * {@code kmv} the view with prefix {@code job-7-} has the changelogs and internal topics it has alone, in the
     * application {@code kmv-job-7}.
     * Each topic is read once, by the first plan that reads it; a plan that reads a topic another way than an
     * earlier one cannot join them (an {@link IllegalArgumentException}), nor can a sink or an index, whose store
     * names are fixed. Kafka Streams numbers the parts of the topology in the order their nodes are added, so a
     * plan added last leaves the numbers, and so the tasks and local state, of the plans before it as they were.
     */
    public static Topology buildShared(List<PrefixedPlan> plans) {
        StreamsBuilder builder = new StreamsBuilder();
        TopicReads reads = new TopicReads();
        for (PrefixedPlan shared : plans) {
            PhysicalPlan plan = shared.plan();
            if (plan.sink() != null || plan.index() != null) {
                throw new IllegalArgumentException(plan.view() + " is not a view: only views share a topology");
            }
            if (shared.prefix().isEmpty()) {
                throw new IllegalArgumentException(plan.view() + " needs a prefix of its own to share a topology");
            }
            addTo(builder, new BuildContext(builder, reads, shared.prefix(), plan, shared.errors(), shared.readFrom()));
        }
        return builder.build(optimized());
    }

    /**
     * A view's plan, the prefix of its names in a shared topology, where its values that cannot be computed go, and
     * where its reading of the topics it shares with the plans before it begins, by {@code topic:partition}: it drops
     * what the topology reads below those offsets, which it already holds. Only a topic it reads as a stream of
     * inserts can begin elsewhere (an {@link IllegalArgumentException} otherwise).
     */
    public record PrefixedPlan(String prefix, PhysicalPlan plan, EvaluationErrors errors, Map<String, Long> readFrom) {

        public PrefixedPlan {
            readFrom = Map.copyOf(readFrom);
        }

        public PrefixedPlan(String prefix, PhysicalPlan plan, EvaluationErrors errors) {
            this(prefix, plan, errors, Map.of());
        }
    }

    private static void addTo(StreamsBuilder builder, BuildContext context) {
        PhysicalPlan plan = context.plan();
        StepBuilders steps = new StepBuilders(context);
        for (PlanStep step : plan.steps()) {
            Lazy<KTable<Object[], Object[]>> table = context.addTable(step.id(), step.accept(steps));
            // A step that also offers its rows as a stream builds its table only if a later step asks for it;
            // every other step is built here, in plan order, as plans of version 1 always were.
            if (!context.producesInserts(step.id())) {
                table.get();
            }
        }
        String root = plan.root().id();
        if (plan.sink() != null) {
            PlanOutputs.writeOut(builder, plan, context.table(root));
        } else if (plan.index() != null) {
            PlanOutputs.keepAsIndex(builder, plan, context.table(root));
        } else if (context.producesInserts(root)) {
            PlanOutputs.keepInsertsAsView(context, context.stream(root));
        } else {
            PlanOutputs.keepAsView(context, context.table(root));
        }
    }

    private static Properties optimized() {
        Properties properties = new Properties();
        // Source tables use their own topic as changelog instead of a copy.
        properties.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, StreamsConfig.OPTIMIZE);
        return properties;
    }
}
