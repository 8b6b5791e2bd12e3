package io.kafkamv.compiler.topology;

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
        BuildContext context = new BuildContext(builder, plan, errors);
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
            PlanOutputs.keepInsertsAsView(builder, plan, context.stream(root));
        } else {
            PlanOutputs.keepAsView(plan, context.table(root));
        }
        Properties properties = new Properties();
        // Source tables use their own topic as changelog instead of a copy.
        properties.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, StreamsConfig.OPTIMIZE);
        return builder.build(properties);
    }
}
