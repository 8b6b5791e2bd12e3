package io.kafkamv.connectors.format;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * Reads a record of a topic others write as a change to a source's rows, in one of two formats:
 * <ul>
 * <li>{@code json}: with a primary key, a record upserts the row with its key, and a tombstone (no
 * value) deletes the row whose key the record's key holds, as a JSON object of the key columns: what
 * upsert sinks, ours included, write. Without one, each record is a new row keyed by where it is,
 * and tombstones mean nothing.
 * <li>{@code debezium-json}: Debezium's change envelope ({@code before}, {@code after}, {@code op},
 * with or without the {@code schema}/{@code payload} wrapper), so a CDC topic feeds a source with
 * updates and deletes. It needs a primary key; the tombstones after deletes mean nothing.
 * </ul>
 */
public final class SourceRecordDecoder {

    /** The formats this decoder reads. */
    public static final java.util.Set<String> FORMATS = java.util.Set.of("json", "debezium-json");

    /** A change: the row's key and its new value, or null when the row is deleted. */
    public record Change(Object[] key, Object[] row) {
    }

    private final JsonRowDecoder values;
    private final JsonRowDecoder keys;
    private final int[] keyColumns;
    private final boolean debezium;

    public SourceRecordDecoder(RowSchema schema, String format) {
        if (!FORMATS.contains(format)) {
            throw new IllegalArgumentException("source format " + format + " is not supported");
        }
        if (format.equals("debezium-json") && schema.keyColumns().isEmpty()) {
            throw new IllegalArgumentException("a debezium-json source needs a primary key");
        }
        this.debezium = format.equals("debezium-json");
        this.values = new JsonRowDecoder(schema.columns());
        List<Column> key = schema.keyColumns().stream().map(name -> schema.column(name).orElseThrow()).toList();
        this.keys = new JsonRowDecoder(key.stream().map(c -> new Column(c.name(), c.type(), false)).toList());
        this.keyColumns = key.stream().mapToInt(schema.columns()::indexOf).toArray();
    }

    /**
     * The change a record makes, or null when it makes none.
     *
     * @throws MalformedRecordException with the reason, when the record cannot be read
     */
    public Change decode(int partition, long offset, byte[] key, byte[] value) {
        if (debezium) {
            return value == null ? null : debeziumChange(JsonRowDecoder.parse(value));
        }
        if (value == null) {
            if (keyColumns.length == 0) {
                return null;
            }
            if (key == null) {
                throw new MalformedRecordException("a tombstone without a key");
            }
            return new Change(keys.decode(key), null);
        }
        Object[] row = values.decode(value);
        if (keyColumns.length == 0) {
            return new Change(new Object[] {partition, offset}, row);
        }
        return new Change(keyOf(row), row);
    }

    private Change debeziumChange(JsonNode envelope) {
        JsonNode change = envelope.has("payload") && envelope.get("payload").isObject() ? envelope.get("payload") : envelope;
        String op = change.path("op").asText("");
        switch (op) {
            case "c", "r", "u" -> {
                Object[] row = values.decode(change.get("after"));
                return new Change(keyOf(row), row);
            }
            case "d" -> {
                return new Change(keyOf(values.decode(change.get("before"))), null);
            }
            default -> throw new MalformedRecordException(op.isEmpty() ? "not a Debezium change: no \"op\""
                : "Debezium op \"" + op + "\" is not c, r, u or d");
        }
    }

    private Object[] keyOf(Object[] row) {
        Object[] rowKey = new Object[keyColumns.length];
        for (int i = 0; i < keyColumns.length; i++) {
            rowKey[i] = row[keyColumns[i]];
        }
        return rowKey;
    }
}
