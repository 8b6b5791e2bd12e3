package io.kafkamv.connectors.schema;

import java.util.Objects;

/** A named, typed column; names are stored as the user wrote them after SQL case folding. */
public record Column(String name, SqlType type, boolean nullable) {

    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (name.isBlank()) {
            throw new IllegalArgumentException("A column needs a name");
        }
    }

    public static Column of(String name, SqlType type) {
        return new Column(name, type, true);
    }
}
