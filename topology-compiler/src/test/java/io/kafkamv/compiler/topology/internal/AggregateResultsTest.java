package io.kafkamv.compiler.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.plan.AggregateStep.AggregateCall;
import io.kafkamv.compiler.plan.AggregateStep.AggregateFunction;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class AggregateResultsTest {

    private static final Column G = new Column("g", SqlType.INTEGER, false);
    private static final List<AggregateCall> CALLS = List.of(
        new AggregateCall(AggregateFunction.COUNT, -1, false, null),
        new AggregateCall(AggregateFunction.SUM, 1, false, null),
        new AggregateCall(AggregateFunction.MAX, 1, false, null));
    private static final AggregateCall[] CALL_ARRAY = CALLS.toArray(AggregateCall[]::new);

    /** {@code SELECT g, count(*), sum(v), max(v) ... GROUP BY g}, or without g and its GROUP BY. */
    private static AggregateStep step(boolean grouped) {
        List<Column> columns = new ArrayList<>(grouped ? List.of(G) : List.of());
        columns.addAll(List.of(new Column("n", SqlType.BIGINT, false), new Column("s", SqlType.BIGINT, true),
            new Column("m", SqlType.BIGINT, true)));
        return new AggregateStep("a", "t", grouped ? List.of(0) : List.of(), CALLS,
            new RowSchema(columns, List.of()), grouped ? List.of(G) : List.of());
    }

    private static Accumulator of(Object[]... rows) {
        Accumulator accumulator = new Accumulator(CALLS.size());
        for (Object[] row : rows) {
            accumulator = accumulator.plus(CALL_ARRAY, row, 1);
        }
        return accumulator;
    }

    @Test
    void aGroupsRowIsItsKeyThenEachResult() {
        Object[] row = new AggregateResults(step(true)).row(new Object[] {7}, of(new Object[] {7, 5L},
            new Object[] {7, 2L}, new Object[] {7, null}), (column, failure) -> {
                throw new AssertionError(failure);
            });

        assertThat(row).containsExactly(7, 3L, 7L, 5L);
    }

    @Test
    void aGroupWhoseRowsWereAllRetractedHasNoRowButAGlobalAggregateKeepsItsOne() {
        Accumulator emptied = of(new Object[] {7, 5L}).plus(CALL_ARRAY, new Object[] {7, 5L}, -1);

        assertThat(new AggregateResults(step(true)).row(new Object[] {7}, emptied, (column, failure) -> { }))
            .isNull();
        assertThat(new AggregateResults(step(true)).hasRow(emptied.rows())).isFalse();
        assertThat(new AggregateResults(step(false)).row(new Object[0], emptied, (column, failure) -> { }))
            .containsExactly(0L, null, null);
        assertThat(new AggregateResults(step(false)).hasRow(0)).isTrue();
    }

    @Test
    void aResultBeyondItsTypeIsNullAndTold() {
        List<String> failed = new ArrayList<>();

        Object[] row = new AggregateResults(step(true)).row(new Object[] {1},
            of(new Object[] {1, Long.MAX_VALUE}, new Object[] {1, Long.MAX_VALUE}),
            (column, failure) -> failed.add(column.name() + ": " + failure.getMessage()));

        assertThat(row).containsExactly(1, 2L, null, Long.MAX_VALUE);
        assertThat(failed).containsExactly("s: bigint out of range");
    }

    @Test
    void theRowsOfAStoredAccumulatorAreReadWithoutDecodingIt() {
        AccumulatorSerde serde = new AccumulatorSerde(CALLS.size());
        Accumulator accumulator = of(new Object[] {1, 3L}, new Object[] {1, 4L});
        byte[] encoded = serde.serializer().serialize("t", accumulator);
        byte[] stored = new byte[Long.BYTES + encoded.length];
        System.arraycopy(encoded, 0, stored, Long.BYTES, encoded.length);

        assertThat(AccumulatorSerde.rows(stored, Long.BYTES)).isEqualTo(2);
        assertThat(new AggregateResults(step(true)).row(new Object[] {1}, serde.decode(stored, Long.BYTES),
            (column, failure) -> { })).containsExactly(1, 2L, 7L, 4L);
    }
}
