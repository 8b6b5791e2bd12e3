package io.kafkamv.compiler.topology;

import java.util.function.Supplier;

import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.plan.UnionAllStep;
import io.kafkamv.connectors.row.RowSerde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.KeyValueStore;

/** Builds a {@link UnionAllStep}: every input's changes, keyed by input and key, in one table. */
final class UnionAllBuilder {

    private final BuildContext context;

    UnionAllBuilder(BuildContext context) {
        this.context = context;
    }

    Supplier<KTable<Object[], Object[]>> build(UnionAllStep step) {
        return () -> unionAll(step);
    }

    private KTable<Object[], Object[]> unionAll(UnionAllStep step) {
        RowSerde unionKeySerde = new RowSerde(step.key());
        RowSerde valueSerde = new RowSerde(step.schema().columns());
        KStream<Object[], Object[]> merged = null;
        for (int i = 0; i < step.inputs().size(); i++) {
            int input = i;
            PlanStep source = context.step(step.inputs().get(i));
            Serializer<Object[]> inputKeys = new RowSerde(source.key()).serializer();
            KStream<Object[], Object[]> branch = context.table(source.id())
                .toStream(Named.as(step.id() + "-changes-" + i))
                .map((key, row) -> KeyValue.pair(new Object[] {input, inputKeys.serialize(null, key)}, row),
                    Named.as(step.id() + "-key-" + i));
            merged = merged == null ? branch : merged.merge(branch, Named.as(step.id() + "-merge-" + i));
        }
        return merged.toTable(Named.as(step.id()),
            Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                .withKeySerde(unionKeySerde).withValueSerde(valueSerde));
    }
}
