package io.kafkamv.compiler.plan;

/** Does one thing per kind of step; adding a step kind makes every visitor say what it does with it. */
public interface PlanStepVisitor<R> {

    R visit(TableScanStep step);

    R visit(SourceScanStep step);

    R visit(CalcStep step);

    R visit(AggregateStep step);

    R visit(UnionAllStep step);

    R visit(JoinStep step);

    R visit(TopNStep step);

    R visit(WindowStep step);

    R visit(LookupJoinStep step);
}
