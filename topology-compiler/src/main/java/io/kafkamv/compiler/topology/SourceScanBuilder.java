package io.kafkamv.compiler.topology;

import java.util.Map;
import java.util.function.Supplier;

import io.kafkamv.compiler.plan.SourceScanStep;
import io.kafkamv.compiler.topology.internal.SourceDecoder;
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
        Map<String, KStream<byte[], SourceDecoder.Decoded>> branches = context.builder()
            .stream(step.topic(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(step.id() + "-records"))
            .processValues(() -> new SourceDecoder(step), Named.as(step.id() + "-decode"))
            .split(Named.as(step.id() + "-"))
            .branch((key, decoded) -> decoded.ok(), Branched.as("rows"))
            .defaultBranch(Branched.as("malformed"));
        branches.get(step.id() + "-malformed")
            .mapValues(SourceDecoder.Decoded::raw, Named.as(step.id() + "-raw"))
            .to(step.deadLetterTopic(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                .withName(step.id() + "-dead-letters"));
        KStream<Object[], Object[]> keyed = branches.get(step.id() + "-rows")
            .map((key, decoded) -> KeyValue.pair(decoded.key(), decoded.row()), Named.as(step.id() + "-keyed"));
        if (context.producesInserts(step.id())) {
            context.offerStream(step.id(), () -> keyed);
        }
        // No record cache, as a table's (TableScanBuilder): each change reaches the view as it is read.
        return () -> keyed.toTable(Named.as(step.id()),
            Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                .withKeySerde(new RowSerde(step.key())).withValueSerde(new RowSerde(step.schema().columns()))
                .withCachingDisabled());
    }
}
