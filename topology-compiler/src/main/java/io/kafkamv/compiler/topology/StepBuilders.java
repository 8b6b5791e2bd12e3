package io.kafkamv.compiler.topology;

import java.util.function.Supplier;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.plan.CalcStep;
import io.kafkamv.compiler.plan.JoinStep;
import io.kafkamv.compiler.plan.LookupJoinStep;
import io.kafkamv.compiler.plan.PlanStepVisitor;
import io.kafkamv.compiler.plan.SourceScanStep;
import io.kafkamv.compiler.plan.TableScanStep;
import io.kafkamv.compiler.plan.TopNStep;
import io.kafkamv.compiler.plan.UnionAllStep;
import io.kafkamv.compiler.plan.WindowStep;
import org.apache.kafka.streams.kstream.KTable;

/**
 * Each step, to the builder of its kind: a supplier of the step's table. A step whose rows are only
 * ever inserted (an append-only source, and calculations and tumbling windows over one) also offers
 * them as a stream (see {@link BuildContext}), so that an aggregation or a view over them can skip the
 * table; with insert exchanges, aggregations, joins and top-N over them skip it too.
 */
final class StepBuilders implements PlanStepVisitor<Supplier<KTable<Object[], Object[]>>> {

    private final BuildContext context;
    private final TableScanBuilder tableScans;
    private final SourceScanBuilder sourceScans;
    private final CalcBuilder calcs;
    private final AggregateBuilder aggregates;
    private final UnionAllBuilder unions;
    private final JoinBuilder joins;
    private final TopNBuilder topNs;
    private final WindowBuilder windows;
    private final LookupJoinBuilder lookupJoins;

    StepBuilders(BuildContext context) {
        this.context = context;
        this.tableScans = new TableScanBuilder(context);
        this.sourceScans = new SourceScanBuilder(context);
        this.calcs = new CalcBuilder(context);
        this.aggregates = new AggregateBuilder(context);
        this.unions = new UnionAllBuilder(context);
        this.joins = new JoinBuilder(context);
        this.topNs = new TopNBuilder(context);
        this.windows = new WindowBuilder(context);
        this.lookupJoins = new LookupJoinBuilder(context);
    }

    @Override
    public Supplier<KTable<Object[], Object[]>> visit(TableScanStep step) {
        return context.scan(step, step.topic(), () -> tableScans.build(step));
    }

    @Override
    public Supplier<KTable<Object[], Object[]>> visit(SourceScanStep step) {
        return context.scan(step, step.topic(), () -> sourceScans.build(step));
    }

    @Override
    public Supplier<KTable<Object[], Object[]>> visit(CalcStep step) {
        return calcs.build(step);
    }

    @Override
    public Supplier<KTable<Object[], Object[]>> visit(AggregateStep step) {
        return aggregates.build(step);
    }

    @Override
    public Supplier<KTable<Object[], Object[]>> visit(UnionAllStep step) {
        return unions.build(step);
    }

    @Override
    public Supplier<KTable<Object[], Object[]>> visit(JoinStep step) {
        return joins.build(step);
    }

    @Override
    public Supplier<KTable<Object[], Object[]>> visit(TopNStep step) {
        return topNs.build(step);
    }

    @Override
    public Supplier<KTable<Object[], Object[]>> visit(WindowStep step) {
        return windows.build(step);
    }

    @Override
    public Supplier<KTable<Object[], Object[]>> visit(LookupJoinStep step) {
        return lookupJoins.build(step);
    }
}
