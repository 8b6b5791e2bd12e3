package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.kafkamv.connectors.schema.RowSchema;

/**
 * Everything needed to build a view's topology, without its SQL: the steps in an order where each
 * step comes after its inputs, the last one being the view's rows.
 *
 * @param outputTopic where the view's changes go: its changelog, read by downstream views and sinks
 * @param store       the state store that holds the view's rows for queries
 */
public record PhysicalPlan(int version, String view, String outputTopic, String store, List<PlanStep> steps) {

    public static final int CURRENT_VERSION = 1;

    public PhysicalPlan {
        steps = List.copyOf(steps);
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("A plan needs at least one step");
        }
    }

    public PlanStep root() {
        return steps.get(steps.size() - 1);
    }

    public RowSchema schema() {
        return root().schema();
    }

    public Map<String, PlanStep> stepsById() {
        return steps.stream().collect(Collectors.toMap(PlanStep::id, Function.identity()));
    }

    /** The topics this plan reads: the backfill is measured on them. */
    public List<String> sourceTopics() {
        return steps.stream()
            .map(step -> step instanceof TableScanStep scan ? scan.topic()
                : step instanceof SourceScanStep source ? source.topic() : null)
            .filter(java.util.Objects::nonNull)
            .distinct()
            .toList();
    }
}
