package io.kafkamv.connectors.format;

import java.util.List;
import java.util.Map;

import io.kafkamv.connectors.registry.SchemaRegistry;
import io.kafkamv.connectors.registry.SchemaRegistryClient;
import io.kafkamv.connectors.schema.Column;

/**
 * An Avro sink's two encoders, named as Confluent's serializers name them (TopicNameStrategy): the
 * values, a record named after the sink, under {@code <topic>-value}; the keys, the record of its
 * key columns, under {@code <topic>-key}.
 */
public record AvroSinkEncoders(AvroRowEncoder values, AvroRowEncoder keys) {

    /** @param options the sink's registry options ({@link SchemaRegistryClient#fromOptions}) */
    public static AvroSinkEncoders of(String sink, String topic, List<Column> columns, List<Column> keyColumns,
                                      Map<String, String> options) {
        SchemaRegistry registry = SchemaRegistryClient.fromOptions(options);
        String record = avroName(sink);
        return new AvroSinkEncoders(new AvroRowEncoder(record, columns, registry, topic + "-value"),
            keyColumns.isEmpty() ? null : new AvroRowEncoder(record + "_key", keyColumns, registry, topic + "-key"));
    }

    /** Registers both schemas now, as the job would on its first message (see {@link AvroRowEncoder#register}). */
    public void register() {
        values.register();
        if (keys != null) {
            keys.register();
        }
    }

    /** An Avro record name from a sink's: letters, digits and _, not starting with a digit. */
    private static String avroName(String name) {
        String cleaned = name.replaceAll("[^A-Za-z0-9_]", "_");
        return Character.isDigit(cleaned.charAt(0)) ? "_" + cleaned : cleaned;
    }
}
