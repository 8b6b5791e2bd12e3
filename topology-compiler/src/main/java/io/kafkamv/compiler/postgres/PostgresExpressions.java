package io.kafkamv.compiler.postgres;

import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * PostgreSQL's rules for expressions, the one place views and batch queries both take them from: integer
 * arithmetic that fails on overflow and remainders in the wider integer ({@link CheckedIntegerArithmetic}),
 * numeric division with PostgreSQL's digits ({@link NumericDivision}), numerics without a scale that keep each
 * value's digits ({@link UnconstrainedNumerics}), casts to text that write what PostgreSQL writes ({@link TextCasts}), timestamps
 * cast to timestamptz with their fraction of a second ({@link TimestampCasts}), mathematical functions that
 * fail where PostgreSQL's do ({@link CheckedMath}), {@code upper} and {@code lower} by character ({@link CaseMapping})
 * and {@code pg_typeof} ({@link TypeNames}).
 * Aggregates differ between the two paths: a view's accumulators sum and
 * average as PostgreSQL does themselves, a batch query's aggregates are rewritten before Calcite runs them.
 */
public final class PostgresExpressions extends RexShuttle {

    private final CheckedIntegerArithmetic checkedIntegers;
    private final NumericDivision division;
    private final UnconstrainedNumerics unconstrained;
    private final TextCasts textCasts;
    private final CheckedMath checkedMath;
    private final TimestampCasts timestampCasts;
    private final TypeNames typeNames;
    private final CaseMapping caseMapping;

    public PostgresExpressions(RexBuilder rexBuilder) {
        this.checkedIntegers = new CheckedIntegerArithmetic(rexBuilder);
        this.division = new NumericDivision(rexBuilder);
        this.unconstrained = new UnconstrainedNumerics(rexBuilder);
        this.textCasts = new TextCasts(rexBuilder);
        this.checkedMath = new CheckedMath(rexBuilder);
        this.timestampCasts = new TimestampCasts(rexBuilder);
        this.typeNames = new TypeNames(rexBuilder);
        this.caseMapping = new CaseMapping(rexBuilder);
    }

    /** Each shuttle rewrites the whole call, its operands too, so they are applied to the outermost call only. */
    @Override
    public RexNode visitCall(RexCall call) {
        return call.accept(typeNames).accept(division).accept(unconstrained).accept(textCasts).accept(timestampCasts)
            .accept(checkedMath).accept(checkedIntegers).accept(caseMapping);
    }
}
