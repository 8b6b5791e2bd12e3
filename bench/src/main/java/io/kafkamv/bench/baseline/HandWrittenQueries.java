package io.kafkamv.bench.baseline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kafkamv.bench.BackfillQuery;
import io.kafkamv.bench.EventTopics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The same queries written by hand with the Kafka Streams DSL, as a competent user would: Jackson to
 * parse, a re-key and an aggregate into RocksDB for GROUP BY, a GlobalKTable for the small side of the
 * join, and every result materialized in a queryable store as a view is.
 */
public final class HandWrittenQueries {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HandWrittenQueries() {
    }

    /** The query over the events topic. */
    public static Topology build(BackfillQuery query) {
        return build(query, EventTopics.EVENTS);
    }

    /** The query over a topic of the same events, such as the small one a warm-up reads. */
    public static Topology build(BackfillQuery query, String eventsTopic) {
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, JsonNode> events = builder
            .stream(eventsTopic, Consumed.with(Serdes.String(), Serdes.ByteArray()))
            .mapValues(HandWrittenQueries::parse);
        switch (query) {
            case FILTER -> events
                .filter((id, event) -> event.get("v").asInt() < 50)
                .mapValues(event -> event.get("id").asLong() + "," + event.get("v").asInt() * 2)
                .toTable(Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("rows")
                    .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
            case GROUP_BY_1K -> countAndSum(events, "g");
            case GROUP_BY_ROW -> countAndSum(events, "id");
            case JOIN, LOOKUP_JOIN -> {
                GlobalKTable<String, byte[]> dims = builder.globalTable(EventTopics.DIMS,
                    Consumed.with(Serdes.String(), Serdes.ByteArray()),
                    Materialized.<String, byte[], KeyValueStore<Bytes, byte[]>>as("dims")
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.ByteArray()));
                events.join(dims, (id, event) -> event.get("g").asText(),
                        (event, dim) -> event.get("id").asLong() + "," + event.get("v").asInt() + ","
                            + parse(dim).get("name").asText())
                    .toTable(Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("rows")
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
            }
            default -> throw new IllegalArgumentException(query.name());
        }
        return builder.build();
    }

    private static void countAndSum(KStream<String, JsonNode> events, String groupField) {
        events.map((id, event) -> KeyValue.pair(event.get(groupField).asText(), event.get("v").asLong()))
            .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
            .aggregate(() -> new long[2], (group, v, countAndSum) -> new long[] {countAndSum[0] + 1, countAndSum[1] + v},
                Materialized.<String, long[], KeyValueStore<Bytes, byte[]>>as("aggregates")
                    .withKeySerde(Serdes.String()).withValueSerde(longPair()));
    }

    private static JsonNode parse(byte[] value) {
        try {
            return JSON.readTree(new String(value, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Serde<long[]> longPair() {
        return Serdes.serdeFrom(
            (topic, pair) -> ByteBuffer.allocate(16).putLong(pair[0]).putLong(pair[1]).array(),
            (topic, bytes) -> {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                return new long[] {buffer.getLong(), buffer.getLong()};
            });
    }
}
