package io.kafkamv.compiler.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.compiler.plan.CalcStep;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class CalcEvaluatorTest {

    private static final RowSchema INPUT = new RowSchema(List.of(Column.of("ts", SqlType.TIMESTAMP)), List.of());
    private static final String SQL = "SELECT EXTRACT(SECOND FROM \"ts\") AS \"s\" FROM \"input\"";
    private static final Object[] ROW = {Instant.parse("2026-01-02T11:30:45.500Z").toEpochMilli()};

    /** EXTRACT is a numeric now, as in PostgreSQL; a view created when it was a bigint keeps writing bigints. */
    @Test
    void aStoredStepKeepsTheTypesItsRowsWereWrittenWith() {
        List<String> errors = new ArrayList<>();
        CalcStep stored = new CalcStep("calc-1", "scan-1", SQL, new RowSchema(List.of(Column.of("s", SqlType.BIGINT)), List.of()),
            List.of());
        CalcStep current = new CalcStep("calc-1", "scan-1", SQL, new RowSchema(List.of(Column.of("s", SqlType.DECIMAL)), List.of()),
            List.of());

        assertThat(CalcEvaluator.of(stored, INPUT, (step, what, e) -> errors.add(what)).project(ROW))
            .containsExactly(45L);
        assertThat(CalcEvaluator.of(current, INPUT, (step, what, e) -> errors.add(what)).project(ROW))
            .containsExactly(new BigDecimal("45.500000"));
        assertThat(errors).isEmpty();
    }

    @Test
    void aNullKeepsBeingNullWhenCastToTheStoredType() {
        CalcStep stored = new CalcStep("calc-1", "scan-1", SQL, new RowSchema(List.of(Column.of("s", SqlType.BIGINT)), List.of()),
            List.of());

        assertThat(CalcEvaluator.of(stored, INPUT, (step, what, e) -> { }).project(new Object[] {null}))
            .containsExactly((Object) null);
    }
}
