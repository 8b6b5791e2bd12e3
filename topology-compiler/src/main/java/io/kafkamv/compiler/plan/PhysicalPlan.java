package io.kafkamv.compiler.plan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * Everything needed to build a view's or sink's topology, without its SQL: the steps in an order
 * where each step comes after its inputs, the last one being the rows.
 *
 * @param view        the name of the view, or of the sink
 * @param outputTopic where the view's changes go: its changelog, read by downstream views and sinks
 * @param store       the state store that holds the rows for queries; null for a sink. From version 5 on, a view whose
 *                    last step is an aggregate has none of its own: its store is the aggregate's state
 *                    ({@link #rowsFromAggregate})
 * @param produces    what each step produces (see {@link StepOutput}); null in plans stored before plans recorded it
 * @param sink        for a sink, how its changes are written out instead; absent for a view
 * @param index       for an index, how it keeps the rows instead; absent for a view
 */
public record PhysicalPlan(int version, String view, String outputTopic, String store, List<PlanStep> steps,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, StepOutput> produces,
                           @JsonInclude(JsonInclude.Include.NON_NULL) SinkOutput sink,
                           @JsonInclude(JsonInclude.Include.NON_NULL) IndexOutput index) {

    /**
     * 1: every step's rows are a table. 2: rows that are only ever inserted flow as streams: aggregations
     * and views over them keep no table of their input. 3: aggregations over such rows fold them into
     * partial aggregates before the exchange. 4: the plan records what each step produces ({@code produces}),
     * which the builders follow; the topologies are those of version 3. 5: a view whose last step is an
     * aggregate reads its rows from the aggregate's state ({@link #rowsFromAggregate}). A stored plan keeps its
     * version, so a running view keeps the topology it was created with, and an instance that does not know a
     * plan's version leaves its job to one that does.
     */
    public static final int CURRENT_VERSION = 5;

    /** From this version on, rows that are only ever inserted flow as streams where they can (see {@link StepOutput}). */
    public static final int INSERT_STREAMS_VERSION = 2;
    /**
     * From this version on, rows that are only ever inserted cross exchanges without a table of them:
     * aggregations send partial aggregates, joins and top-N the rows as they come. The last behaviour a
     * plan-wide version turns on for steps: a step's new behaviour gets a new step type id (see {@link PlanStep}).
     */
    public static final int INSERT_EXCHANGES_VERSION = 3;
    /** From this version on, a view whose last step is an aggregate keeps no store of its rows ({@link #rowsFromAggregate}). */
    public static final int ROWS_FROM_AGGREGATE_VERSION = 5;

    /**
     * A new plan: what each step produces is recorded in it. Its rows are kept in {@code store}, unless its last step
     * is an aggregate that keeps totals only, whose state is then the view's store ({@link #rowsFromAggregate}).
     */
    public static PhysicalPlan of(String view, String outputTopic, String store, List<PlanStep> steps) {
        String kept = steps.get(steps.size() - 1) instanceof AggregateStep aggregate && aggregate.keepsTotalsOnly()
            ? aggregate.stateStore() : store;
        return new PhysicalPlan(CURRENT_VERSION, view, outputTopic, kept, steps, StepOutput.of(CURRENT_VERSION, steps),
            null, null);
    }

    public PhysicalPlan {
        steps = List.copyOf(steps);
        produces = produces == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(produces));
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("A plan needs at least one step");
        }
    }

    /** The same rows written out by a sink instead of kept as a view. */
    public PhysicalPlan writtenTo(SinkOutput output) {
        return new PhysicalPlan(version, view, output.topic(), null, steps, produces, output, null);
    }

    /** The same rows kept by an index, in its store {@code index}, instead of as a view. */
    public PhysicalPlan indexedBy(IndexOutput output) {
        return new PhysicalPlan(version, view, null, "index", steps, produces, null, output);
    }

    /**
     * The same plan with its steps and its store named under {@code prefix}: every processor, store and internal
     * topic is named from them, so that the plans of several views can be built into one topology.
     */
    public PhysicalPlan prefixed(String prefix) {
        UnaryOperator<String> ids = id -> prefix + id;
        Map<String, StepOutput> outputs = null;
        if (produces != null) {
            outputs = new LinkedHashMap<>();
            for (Map.Entry<String, StepOutput> output : produces.entrySet()) {
                outputs.put(ids.apply(output.getKey()), output.getValue());
            }
        }
        return new PhysicalPlan(version, view, outputTopic, store == null ? null : ids.apply(store),
            steps.stream().map(step -> step.renamed(ids)).toList(), outputs, sink, index);
    }

    /**
     * Whether the view's rows are its last step's, an aggregate's, read from its state (its store is the aggregate's):
     * the view keeps no store or changelog of its own, which would hold every group a second time, and its topic gets
     * each group's change from the aggregate. A read makes each group's row from its accumulator as the aggregate's
     * results do; a group whose rows were all retracted stays in the state with none. New plans do so when the
     * aggregate keeps totals only: a MIN, MAX or DISTINCT keeps each of its group's values, which a read would decode
     * every time.
     */
    public boolean rowsFromAggregate() {
        return version >= ROWS_FROM_AGGREGATE_VERSION && sink == null && index == null
            && root() instanceof AggregateStep aggregate && aggregate.stateStore().equals(store);
    }

    /** Whether the rows only ever grow: every input is append-only and no step updates or retracts rows. */
    public boolean appendOnly() {
        return steps.stream().allMatch(step -> step instanceof TableScanStep scan ? scan.appendOnly()
            : step instanceof SourceScanStep ? step.schema().appendOnly()
            : step instanceof CalcStep || step instanceof UnionAllStep || step instanceof WindowStep
                || step instanceof LookupJoinStep);
    }

    /** What the step produces: as recorded, or, in a plan stored before plans recorded it, by its version's rule. */
    public StepOutput output(String stepId) {
        StepOutput output = (produces != null ? produces : StepOutput.of(version, steps)).get(stepId);
        if (output == null) {
            throw new IllegalArgumentException("plan " + view + " has no step " + stepId);
        }
        return output;
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

    /**
     * The topics of the tables this plan looks up ({@link LookupJoinStep}): kept whole by every instance, they
     * are no measure of the backfill, but the plan depends on them as on its sources.
     */
    public List<String> lookupTopics() {
        return steps.stream()
            .map(step -> step instanceof LookupJoinStep lookup ? lookup.topic() : null)
            .filter(java.util.Objects::nonNull)
            .distinct()
            .toList();
    }
}
