package io.kafkamv.connectors.row;

import java.util.List;

import io.kafkamv.connectors.schema.Column;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Rows as Kafka keys and values, in {@link RowCodec}'s binary form; null stays null (a tombstone). */
public final class RowSerde implements Serde<Object[]> {

    private final RowCodec codec;

    public RowSerde(List<Column> columns) {
        this.codec = new RowCodec(columns);
    }

    public RowCodec codec() {
        return codec;
    }

    @Override
    public Serializer<Object[]> serializer() {
        return (topic, row) -> row == null ? null : codec.encode(row);
    }

    @Override
    public Deserializer<Object[]> deserializer() {
        return (topic, bytes) -> bytes == null ? null : codec.decode(bytes);
    }
}
