package io.kafkamv.compiler.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.plan.AggregateStep.AggregateCall;
import io.kafkamv.compiler.plan.AggregateStep.AggregateFunction;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

class HeldBackPartialsStoreTest {

    private static final Column GROUP = new Column("g", SqlType.INTEGER, true);
    private static final AggregateCall[] CALLS = {new AggregateCall(AggregateFunction.COUNT, -1, false, null),
        new AggregateCall(AggregateFunction.SUM, 1, false, null)};
    private static final AggregateStep STEP = new AggregateStep("agg", "input", List.of(0), List.of(CALLS),
        new RowSchema(List.of(GROUP, new Column("n", SqlType.BIGINT, false), new Column("s", SqlType.BIGINT, true)),
            List.of("g")), List.of(GROUP));

    @Test
    void rowsOfOneGroupFoldIntoOnePartialThatALaterProcessorReadsBackFromTheLog() {
        HeldBackPartialsStore store = openStore();
        for (int v = 1; v <= 3; v++) {
            store.partialOf(new Object[] {7, v}, new int[] {0}).addInPlace(CALLS, new Object[] {7, v});
        }
        store.partialOf(new Object[] {8, 10}, new int[] {0}).addInPlace(CALLS, new Object[] {8, 10});
        assertThat(store.groups()).isEqualTo(2);

        store.flushCache();
        store.reload();

        assertThat(store.drain()).extracting(held -> List.of(held.group[0], held.partial.rows(), held.partial.result(CALLS[1], 1)))
            .containsExactlyInAnyOrder(List.of(7, 3L, 6L), List.of(8, 1L, 10L));
        store.reload();
        assertThat(store.groups()).as("drained from the log too").isZero();
    }

    @Test
    void valuesThatDifferButShareKeyBytesAreMergedBeforeTheLogCouldKeepOnlyOne() {
        HeldBackPartialsStore store = openStore();
        store.partialOf(new Object[] {7, 1}, new int[] {0}).addInPlace(CALLS, new Object[] {7, 1});
        store.partialOf(new Object[] {7L, 2}, new int[] {0}).addInPlace(CALLS, new Object[] {7L, 2});
        store.partialOf(new Object[] {8, 10}, new int[] {0}).addInPlace(CALLS, new Object[] {8, 10});
        store.partialOf(new Object[] {(short) 7, 4}, new int[] {0}).addInPlace(CALLS, new Object[] {(short) 7, 4});
        assertThat(store.groups()).as("an Integer, a Long and a Short are three lookups").isEqualTo(4);

        store.flushCache();
        assertThat(store.groups()).as("merged in memory as in the log").isEqualTo(2);
        assertThat(sums(store)).containsExactlyInAnyOrder(List.of(3L, 7L), List.of(1L, 10L));
        store.reload();
        assertThat(store.groups()).as("drained from the log too").isZero();

        store.partialOf(new Object[] {7, 1}, new int[] {0}).addInPlace(CALLS, new Object[] {7, 1});
        store.flushCache();
        store.partialOf(new Object[] {7L, 2}, new int[] {0}).addInPlace(CALLS, new Object[] {7L, 2});
        store.flushCache();
        store.reload();
        assertThat(sums(store)).as("after a restart").containsExactly(List.of(2L, 3L));
    }

    /** Drains the store: each partial's row count and sum. */
    private static List<List<Object>> sums(HeldBackPartialsStore store) {
        return store.drain().stream().map(held -> List.of((Object) held.partial.rows(), held.partial.result(CALLS[1], 1)))
            .toList();
    }

    @Test
    void binaryGroupValuesCompareByTheirBytes() {
        HeldBackPartialsStore store = HeldBackPartialsStore.builder("bytes", new AggregateStep("agg", "input", List.of(0),
            List.of(CALLS), STEP.schema(), List.of(new Column("g", SqlType.BYTEA, true)))).withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        store.partialOf(new Object[] {new byte[] {1, 2}, 1}, new int[] {0}).addInPlace(CALLS, new Object[] {null, 1});
        store.partialOf(new Object[] {new byte[] {1, 2}, 2}, new int[] {0}).addInPlace(CALLS, new Object[] {null, 2});

        assertThat(store.groups()).isEqualTo(1);
    }

    private static HeldBackPartialsStore openStore() {
        HeldBackPartialsStore store = HeldBackPartialsStore.builder("partials", STEP).withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        return store;
    }
}
