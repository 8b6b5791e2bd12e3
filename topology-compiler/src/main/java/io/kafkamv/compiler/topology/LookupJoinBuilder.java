package io.kafkamv.compiler.topology;

import java.util.function.Supplier;

import io.kafkamv.compiler.plan.LookupJoinStep;
import io.kafkamv.compiler.topology.internal.LookupJoinProcessor;
import io.kafkamv.connectors.row.RowSerde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Builds a {@link LookupJoinStep}: the table kept whole by every instance (a global store over its topic), and
 * each input row joined with its row there, where the input row is: the input is never exchanged.
 */
final class LookupJoinBuilder {

    private final BuildContext context;

    LookupJoinBuilder(BuildContext context) {
        this.context = context;
    }

    Supplier<KTable<Object[], Object[]>> build(LookupJoinStep step) {
        String store = context.lookupTable(step);
        int inputWidth = context.step(step.input()).schema().columns().size();
        if (context.producesInserts(step.id())) {
            context.offerStream(step.id(), () -> context.stream(step.input())
                .processValues(() -> new LookupJoinProcessor(step, store, inputWidth, context.errors()),
                    Named.as(step.id() + "-insert-lookup"))
                .filter((key, row) -> row != null, Named.as(step.id() + "-insert-matched")));
        }
        // The joined rows are kept as they were joined: a change of an input row retracts what it joined then,
        // not what its old values would join now.
        return () -> context.table(step.input())
            .toStream(Named.as(step.id() + "-changes"))
            .processValues(() -> new LookupJoinProcessor(step, store, inputWidth, context.errors()),
                Named.as(step.id() + "-lookup"))
            .toTable(Named.as(step.id()), Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                .withKeySerde(new RowSerde(step.key())).withValueSerde(new RowSerde(step.schema().columns())));
    }
}
