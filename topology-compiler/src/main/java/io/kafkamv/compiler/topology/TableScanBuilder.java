package io.kafkamv.compiler.topology;

import java.util.function.Supplier;

import io.kafkamv.compiler.plan.TableScanStep;
import io.kafkamv.compiler.topology.internal.TopicRows;
import io.kafkamv.connectors.row.RowSerde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Builds a {@link TableScanStep}: the topic of a table or view read as a table; with insert streams,
 * rows that are only ever inserted are also offered as a stream, and the topic is read as whichever
 * is asked for first.
 */
final class TableScanBuilder {

    private final BuildContext context;

    TableScanBuilder(BuildContext context) {
        this.context = context;
    }

    Supplier<KTable<Object[], Object[]>> build(TableScanStep step) {
        RowSerde keySerde = new RowSerde(step.key());
        RowSerde valueSerde = new RowSerde(step.schema().columns());
        Materialized<Object[], Object[], KeyValueStore<Bytes, byte[]>> store =
            Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                .withKeySerde(keySerde).withValueSerde(valueSerde).withCachingDisabled();
        if (!context.producesInserts(step.id())) {
            return () -> context.builder().table(step.topic(), Consumed.with(keySerde, valueSerde).withName(step.id()), store);
        }
        TopicRows rows = new TopicRows(
            () -> context.builder().table(step.topic(), Consumed.with(keySerde, valueSerde).withName(step.id()), store),
            table -> table.toStream(Named.as(step.id() + "-inserts")),
            () -> context.builder().stream(step.topic(), Consumed.with(keySerde, valueSerde).withName(step.id() + "-inserts")),
            stream -> stream.toTable(Named.as(step.id()), store));
        context.offerStream(step.id(), rows::stream);
        return rows::table;
    }
}
