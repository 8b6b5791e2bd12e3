package io.kafkamv.compiler;

import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;

/**
 * A table, source or view that a query can read: its columns, the topic that carries its rows (for
 * a view, its changelog) and the columns of that topic's keys.
 */
public record Relation(String name, RowSchema schema, List<Column> key, String topic) {

    /** The key of a table without a primary key: a random id given to each row when it is inserted. */
    public static final Column ROW_ID = new Column("_row_id", io.kafkamv.connectors.schema.SqlType.BIGINT, false);

    public Relation {
        key = List.copyOf(key);
    }
}
