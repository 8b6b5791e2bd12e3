package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.kafkamv.connectors.format.SourceRecordDecoder;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * Reads a topic that others write, decoding each record with {@code format} (e.g. {@code json}).
 * Records that cannot be read go to {@code deadLetterTopic} with the reason in a header, and the
 * view goes on. With a primary key a record is an upsert of its row; without one, an insert keyed
 * by its partition and offset. {@code formatOptions} are what the format needs besides the bytes
 * (the Schema Registry of Avro).
 *
 * <p>{@code keyIsPrimaryKey}: the records are keyed by their rows' primary keys already
 * ({@code key.is_primary_key}), so the rows stay in the partitions they are read from. A field of its own, not only a
 * format option, because it changes the topology: an older kafka-mv, which does not know it, must fail to read the plan
 * and leave the job to newer instances rather than run another topology in the same group.
 */
public record SourceScanStep(String id, String relation, String topic, String format, String deadLetterTopic,
                             RowSchema schema, List<Column> key,
                             @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> formatOptions,
                             @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean keyIsPrimaryKey)
    implements PlanStep {

    public SourceScanStep {
        formatOptions = formatOptions == null ? Map.of() : Map.copyOf(formatOptions);
        if (keyIsPrimaryKey != SourceRecordDecoder.keyIsPrimaryKey(formatOptions)) {
            // The topology follows the field and the decoder's checks the option: unchecked keys would be stored.
            throw new IllegalArgumentException("source step " + id + ": keyIsPrimaryKey " + keyIsPrimaryKey
                + " disagrees with its format option " + SourceRecordDecoder.KEY_IS_PRIMARY_KEY);
        }
    }

    @Override
    public List<String> inputs() {
        return List.of();
    }

    @Override
    public PlanStep withColumnNames(List<String> names) {
        return new SourceScanStep(id, relation, topic, format, deadLetterTopic, schema.withColumnNames(names), key,
            formatOptions, keyIsPrimaryKey);
    }

    @Override
    public PlanStep renamed(UnaryOperator<String> ids) {
        return new SourceScanStep(ids.apply(id), relation, topic, format, deadLetterTopic, schema, key, formatOptions,
            keyIsPrimaryKey);
    }

    @Override
    public <R> R accept(PlanStepVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
