package io.kafkamv.compiler.topology;

import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.runtime.CompositeKeys;
import io.kafkamv.compiler.topology.internal.Exchange;
import io.kafkamv.compiler.topology.internal.ExchangeKeyer;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.row.RowSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Where rows change partition: the {@link Exchange}s of joins, top-N and indexes, and the explicit
 * repartition before the table of a re-keyed stream. Every topic is named from its step.
 */
final class Exchanges {

    private final BuildContext context;

    Exchanges(BuildContext context) {
        this.context = context;
    }

    /**
     * An input's changes keyed for an {@link Exchange} (see {@link #exchange}). Rows that
     * are only ever inserted never move to another prefix, so they go as they come: no table of them
     * and no store of their last prefixes.
     */
    KStream<byte[], byte[]> of(String inputId, String name, String lastPrefixes, String exchangeName, int partitions,
                               Function<Object[], byte[]> prefixes, UnaryOperator<byte[]> changes) {
        PlanStep input = context.step(inputId);
        if (!context.insertExchanges() || !context.producesInserts(inputId)) {
            return exchange(context.builder(), context.table(inputId), input, name, lastPrefixes, exchangeName,
                partitions, prefixes, changes);
        }
        RowCodec inputKeys = new RowCodec(input.key());
        RowCodec inputRows = new RowCodec(input.schema().columns());
        return context.stream(inputId)
            .map((key, row) -> KeyValue.pair(CompositeKeys.compose(prefixes.apply(row), inputKeys.encode(key)),
                changes.apply(inputRows.encode(row))), Named.as(name + "-keys"))
            .repartition(exchangeTopic(exchangeName, partitions));
    }

    /**
     * A table's changes keyed by {@code prefixes} and sent over an {@link Exchange} to the partition
     * of their prefix: processors {@code <name>-changes} and {@code <name>-keys}, the store
     * {@code lastPrefixes} that remembers each row's last prefix, and the exchange {@code exchangeName}.
     */
    static KStream<byte[], byte[]> exchange(StreamsBuilder builder, KTable<Object[], Object[]> rows, PlanStep input,
                                            String name, String lastPrefixes, String exchangeName, int partitions,
                                            Function<Object[], byte[]> prefixes, UnaryOperator<byte[]> changes) {
        builder.addStateStore(BuildContext.bytesStore(lastPrefixes));
        RowCodec inputKeys = new RowCodec(input.key());
        RowCodec inputRows = new RowCodec(input.schema().columns());
        return rows.toStream(Named.as(name + "-changes"))
            .process(() -> new ExchangeKeyer(prefixes, changes, inputKeys, inputRows, lastPrefixes),
                Named.as(name + "-keys"), lastPrefixes)
            .repartition(exchangeTopic(exchangeName, partitions));
    }

    /** The topic of an {@link Exchange}: keyed by prefix, partitioned by it over the plan's partitions. */
    static Repartitioned<byte[], byte[]> exchangeTopic(String name, int partitions) {
        return Repartitioned.<byte[], byte[]>with(Serdes.ByteArray(), Serdes.ByteArray())
            .withName(name)
            .withNumberOfPartitions(partitions)
            .withStreamPartitioner(Exchange.partitioner());
    }

    /**
     * The table of a step whose processor gives rows new keys. Each key comes from one task only,
     * so no exchange is needed, but Kafka Streams puts one before any table of a re-keyed stream;
     * it is made explicit here so that it is named from the step, like everything else.
     */
    static KTable<Object[], Object[]> rekeyedTable(KStream<Object[], Object[]> rows, PlanStep step) {
        RowSerde keySerde = new RowSerde(step.key());
        RowSerde valueSerde = new RowSerde(step.schema().columns());
        return rows.repartition(Repartitioned.with(keySerde, valueSerde).withName(step.id() + "-rows"))
            .toTable(Named.as(step.id()),
                Materialized.<Object[], Object[], KeyValueStore<Bytes, byte[]>>as(step.id() + "-store")
                    .withKeySerde(keySerde).withValueSerde(valueSerde));
    }
}
