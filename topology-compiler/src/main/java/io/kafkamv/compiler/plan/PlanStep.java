package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * One step of a physical plan: immutable data with a versioned type id. A step that changes meaning
 * gets a new type id ({@code calcV2}); the old one stays, so stored plans keep building the same
 * topology.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = TableScanStep.class, name = "tableScanV1"),
    @JsonSubTypes.Type(value = CalcStep.class, name = "calcV1"),
    @JsonSubTypes.Type(value = AggregateStep.class, name = "aggregateV1"),
    @JsonSubTypes.Type(value = UnionAllStep.class, name = "unionAllV1"),
    @JsonSubTypes.Type(value = SourceScanStep.class, name = "sourceScanV1"),
    @JsonSubTypes.Type(value = JoinStep.class, name = "joinV1"),
    @JsonSubTypes.Type(value = TopNStep.class, name = "topNV1"),
    @JsonSubTypes.Type(value = WindowStep.class, name = "windowV1"),
    @JsonSubTypes.Type(value = LookupJoinStep.class, name = "lookupJoinV1"),
})
public sealed interface PlanStep permits TableScanStep, SourceScanStep, CalcStep, AggregateStep, UnionAllStep,
    JoinStep, TopNStep, WindowStep, LookupJoinStep {

    /** Unique in its plan; every processor, store and internal topic of the step is named from it. */
    String id();

    /** The columns of the rows this step produces. */
    RowSchema schema();

    /** The columns of the key each row is stored and partitioned by; not always among the row's columns. */
    List<Column> key();

    /** The ids of the steps this one reads. */
    List<String> inputs();

    /** The same step producing the same values under other column names. */
    PlanStep withColumnNames(java.util.List<String> names);

    /** The same step under another id, reading the steps it reads under theirs: {@code ids} renames every one. */
    PlanStep renamed(UnaryOperator<String> ids);

    <R> R accept(PlanStepVisitor<R> visitor);
}
