package io.kafkamv.compiler.topology;

import java.util.function.Supplier;

import io.kafkamv.compiler.plan.CalcStep;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.topology.internal.CalcEvaluator;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Named;

/** Builds a {@link CalcStep}: a filter and a projection, over a table or, for append-only rows, a stream. */
final class CalcBuilder {

    private final BuildContext context;

    CalcBuilder(BuildContext context) {
        this.context = context;
    }

    Supplier<KTable<Object[], Object[]>> build(CalcStep step) {
        PlanStep input = context.step(step.input());
        CalcEvaluator evaluator = CalcEvaluator.of(step, input.schema(), context.errors());
        if (context.producesInserts(step.id())) {
            context.offerStream(step.id(), () -> {
                KStream<Object[], Object[]> rows = context.stream(step.input());
                if (evaluator.hasCondition()) {
                    rows = rows.filter((key, row) -> evaluator.test(row), Named.as(step.id() + "-insert-filter"));
                }
                return rows.mapValues(evaluator::project, Named.as(step.id() + "-insert-project"));
            });
        }
        return () -> {
            KTable<Object[], Object[]> table = context.table(step.input());
            if (evaluator.hasCondition()) {
                table = table.filter((key, row) -> evaluator.test(row), Named.as(step.id() + "-filter"));
            }
            return table.mapValues(evaluator::project, Named.as(step.id() + "-project"));
        };
    }
}
