package io.kafkamv.connectors.schema;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The ordered columns of a table, source or view, and which of them form its key. */
public record RowSchema(List<Column> columns, List<String> keyColumns) {

    public RowSchema {
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
        Set<String> names = new HashSet<>();
        for (Column column : columns) {
            if (!names.add(column.name())) {
                throw new IllegalArgumentException("Column \"" + column.name() + "\" is defined twice");
            }
        }
        for (String key : keyColumns) {
            if (!names.contains(key)) {
                throw new IllegalArgumentException("Key column \"" + key + "\" is not a column");
            }
        }
    }

    public static RowSchema of(Column... columns) {
        return new RowSchema(List.of(columns), List.of());
    }

    /** The same columns under new names, in order; key column names follow their columns. */
    public RowSchema withColumnNames(List<String> names) {
        if (names.size() != columns.size()) {
            throw new IllegalArgumentException(names.size() + " names for " + columns.size() + " columns");
        }
        List<Column> renamed = new java.util.ArrayList<>();
        List<String> keys = new java.util.ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Column column = columns.get(i);
            renamed.add(column.named(names.get(i)));
            if (keyColumns.contains(column.name())) {
                keys.add(names.get(i));
            }
        }
        return new RowSchema(renamed, keys);
    }

    public Optional<Column> column(String name) {
        return columns.stream().filter(column -> column.name().equals(name)).findFirst();
    }

    /** A row without a primary key is append-only: it can be inserted, never updated. */
    public boolean appendOnly() {
        return keyColumns.isEmpty();
    }
}
