package io.kafkamv.compiler.catalog;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;

/**
 * A table, source or view that a query can read: its columns, the topic that carries its rows (for
 * a view, its changelog) and the columns of that topic's keys.
 *
 * @param format         {@link #NATIVE} for topics kafka-mv writes (tables, views); a format name,
 *                       e.g. {@code json}, for a source over a topic others write
 * @param deadLetterTopic where records of a source that cannot be read go; null for the others
 * @param formatOptions  what reading the topic needs besides the bytes: the Schema Registry of Avro,
 *                       the CSV delimiter, where views start ({@code scan.startup.mode})
 * @param appendOnly     whether rows are only ever inserted, never updated or deleted: a table or source
 *                       without a primary key, a view whose plan only inserts; stored as {@code insertsOnly}.
 *                       False when a stored entry predates it, which is always safe (the rows are then read
 *                       as a table)
 */
public record Relation(String name, RowSchema schema, List<Column> key, String topic, String format,
                       String deadLetterTopic, Map<String, String> formatOptions,
                       @JsonProperty("insertsOnly") boolean appendOnly) {

    public static final String NATIVE = "native";

    /** The key of a table without a primary key: a random id given to each row when it is inserted. */
    public static final Column ROW_ID = new Column("_row_id", SqlType.BIGINT, false);

    /** The key of a source without a primary key: where each record is, so a replay keys it the same. */
    public static final List<Column> RECORD_POSITION = List.of(
        new Column("_partition", SqlType.INTEGER, false), new Column("_offset", SqlType.BIGINT, false));

    public Relation {
        key = List.copyOf(key);
        format = format == null ? NATIVE : format;
        formatOptions = formatOptions == null ? Map.of() : Map.copyOf(formatOptions);
    }

    /** A table or source: its rows are only inserted when it has no primary key. */
    public Relation(String name, RowSchema schema, List<Column> key, String topic, String format,
                    String deadLetterTopic, Map<String, String> formatOptions) {
        this(name, schema, key, topic, format, deadLetterTopic, formatOptions, schema.appendOnly());
    }

    /** A source in a format that needs nothing but the bytes. */
    public Relation(String name, RowSchema schema, List<Column> key, String topic, String format,
                    String deadLetterTopic) {
        this(name, schema, key, topic, format, deadLetterTopic, Map.of());
    }

    /** A table: rows in kafka-mv's own binary format. */
    public Relation(String name, RowSchema schema, List<Column> key, String topic) {
        this(name, schema, key, topic, NATIVE, null, Map.of());
    }

    /** A view: its plan's rows, in kafka-mv's own binary format on its output topic. */
    public static Relation view(String name, io.kafkamv.compiler.plan.PhysicalPlan plan) {
        return new Relation(name, plan.schema(), plan.root().key(), plan.outputTopic(), NATIVE, null, Map.of(),
            plan.appendOnly());
    }

    public boolean hasNativeFormat() {
        return NATIVE.equals(format);
    }
}
