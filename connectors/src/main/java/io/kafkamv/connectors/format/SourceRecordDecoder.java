package io.kafkamv.connectors.format;

import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * Reads a record of a topic others write as a change to a source's rows. With a primary key, a
 * record upserts the row with its key, and a tombstone (no value) deletes the row whose key the
 * record's key holds, as a JSON object of the key columns: what upsert sinks, ours included, write.
 * Without one, each record is a new row keyed by where it is, and tombstones mean nothing.
 */
public final class SourceRecordDecoder {

    /** A change: the row's key and its new value, or null when the row is deleted. */
    public record Change(Object[] key, Object[] row) {
    }

    private final JsonRowDecoder values;
    private final JsonRowDecoder keys;
    private final int[] keyColumns;

    public SourceRecordDecoder(RowSchema schema) {
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
        Object[] rowKey = new Object[keyColumns.length];
        for (int i = 0; i < keyColumns.length; i++) {
            rowKey[i] = row[keyColumns[i]];
        }
        return new Change(rowKey, row);
    }
}
