package io.kafkamv.connectors.jdbc;

import java.util.List;

import io.kafkamv.connectors.schema.Column;

/**
 * A PostgreSQL table that a sink keeps equal to its rows.
 *
 * @param keyColumns the table's primary key (or unique) columns, which identify a row
 */
public record JdbcTarget(String url, String user, String password, String table, List<Column> columns,
                         List<String> keyColumns) {

    public JdbcTarget {
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
    }
}
