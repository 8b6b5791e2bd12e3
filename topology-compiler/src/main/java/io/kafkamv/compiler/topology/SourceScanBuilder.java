package io.kafkamv.compiler.topology;

import java.util.Map;
import java.util.function.Supplier;

import io.kafkamv.compiler.plan.SourceScanStep;
import io.kafkamv.compiler.topology.internal.SourceDecoder;
import io.kafkamv.compiler.topology.internal.SourceKeys;
import io.kafkamv.connectors.row.RowSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/** Builds a {@link SourceScanStep}: records decoded, the ones that cannot be read sent to the dead letters. */
final class SourceScanBuilder {

    private final BuildContext context;

    SourceScanBuilder(BuildContext context) {
        this.context = context;
    }

    Supplier<KTable<Object[], Object[]>> build(SourceScanStep step) {
        Materialized<Object[], Object[], KeyValueStore<Bytes, byte[]>> rows =
            Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                .withKeySerde(new RowSerde(step.key())).withValueSerde(new RowSerde(step.schema().columns()))
                // No record cache, as a table's (TableScanBuilder): each change reaches the view as it is read.
                .withCachingDisabled();
        if (step.keyIsPrimaryKey()) {
            // Keyed by the primary key as read: no step changes the keys, so no repartition topic (SourceKeys).
            SourceKeys.PrimaryKeys keys = SourceKeys.primaryKeys(step.key().size());
            KStream<Object[], SourceDecoder.Decoded> decoded = decoded(step,
                Consumed.with(keys.serde(), Serdes.ByteArray()), keys);
            KStream<Object[], Object[]> changes = decoded.mapValues(SourceDecoder.Decoded::row,
                Named.as(step.id() + "-values"));
            return () -> changes.toTable(Named.as(step.id()), rows);
        }
        KStream<Object[], Object[]> keyed = decoded(step, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()),
            SourceKeys.BYTES)
            .map((key, decoded) -> KeyValue.pair(decoded.key(), decoded.row()), Named.as(step.id() + "-keyed"));
        if (context.producesInserts(step.id())) {
            context.offerStream(step.id(), () -> keyed);
        }
        return () -> keyed.toTable(Named.as(step.id()), rows);
    }

    /** The source's rows, decoded; the records that cannot be read go to its dead letters. */
    private <K> KStream<K, SourceDecoder.Decoded> decoded(SourceScanStep step, Consumed<K, byte[]> consumed,
                                                          SourceKeys<K> keys) {
        Map<String, KStream<K, SourceDecoder.Decoded>> branches = context.builder()
            .stream(step.topic(), consumed.withName(step.id() + "-records"))
            .processValues(() -> new SourceDecoder<K>(step, keys), Named.as(step.id() + "-decode"))
            .split(Named.as(step.id() + "-"))
            .branch((key, decoded) -> decoded.ok(), Branched.as("rows"))
            .defaultBranch(Branched.as("malformed"));
        branches.get(step.id() + "-malformed")
            .map((key, decoded) -> KeyValue.pair(decoded.rawKey(), decoded.raw()), Named.as(step.id() + "-raw"))
            .to(step.deadLetterTopic(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                .withName(step.id() + "-dead-letters"));
        return branches.get(step.id() + "-rows");
    }
}
