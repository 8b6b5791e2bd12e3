package io.kafkamv.service.statement;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.kafkamv.connectors.format.AvroTypes;
import io.kafkamv.connectors.format.SourceRecordDecoder;
import io.kafkamv.connectors.registry.SchemaRegistry;
import io.kafkamv.connectors.registry.SchemaRegistryClient;
import io.kafkamv.connectors.registry.SchemaRegistryException;
import io.kafkamv.connectors.registry.SubjectNameStrategy;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import org.apache.avro.Schema;

/**
 * The columns of an Avro source declared without a column list: those of the latest value schema
 * in the registry, under the subject the topic's records use ({@code subject.name.strategy} =
 * {@code topic}, the default, or {@code record} with {@code record.name}). A primary key comes
 * from the {@code primary_key} option.
 */
final class AvroSourceSchemas {

    private AvroSourceSchemas() {
    }

    static RowSchema fromRegistry(String topic, Map<String, String> options) {
        String user = options.get(SourceRecordDecoder.SCHEMA_REGISTRY_USERNAME);
        SchemaRegistry registry = new SchemaRegistryClient(options.get(SourceRecordDecoder.SCHEMA_REGISTRY),
            user == null ? null : user + ":" + options.getOrDefault(SourceRecordDecoder.SCHEMA_REGISTRY_PASSWORD, ""));
        String subject;
        try {
            SubjectNameStrategy strategy = SubjectNameStrategy.of(options.getOrDefault("subject.name.strategy", "topic"));
            String recordName = options.get("record.name");
            if (strategy == SubjectNameStrategy.RECORD_NAME && recordName == null) {
                throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "subject.name.strategy 'record' needs record.name",
                    0, "add record.name = 'com.example.Order' to WITH (...)");
            }
            subject = strategy.subject(topic, recordName, false);
        } catch (IllegalArgumentException e) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, e.getMessage());
        }
        List<Column> columns;
        try {
            columns = AvroTypes.columns(new Schema.Parser().parse(registry.latest(subject).schema()));
        } catch (SchemaRegistryException e) {
            throw SqlError.at(SqlState.UNDEFINED_OBJECT, "cannot read the schema of subject \"" + subject + "\": "
                + e.getMessage(), 0, "declare the columns, or register the topic's value schema first");
        } catch (IllegalArgumentException e) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, e.getMessage());
        }
        List<String> key = options.containsKey("primary_key")
            ? Arrays.stream(options.get("primary_key").split(",")).map(String::trim).filter(k -> !k.isEmpty()).toList()
            : List.of();
        List<Column> keyed = columns.stream()
            .map(column -> key.contains(column.name()) ? column.withNullable(false) : column)
            .toList();
        try {
            return new RowSchema(keyed, key);
        } catch (IllegalArgumentException e) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, e.getMessage());
        }
    }
}
