package io.kafkamv.connectors.schema;

import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A named, typed column; names are stored as the user wrote them after SQL case folding. A numeric column
 * declared with a precision has its {@link NumericTypmod}; every other column, and a plain {@code numeric},
 * has none (null), and its values keep their own digits.
 */
public record Column(String name, SqlType type, boolean nullable,
                     @JsonInclude(JsonInclude.Include.NON_NULL) NumericTypmod numeric) {

    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (name.isBlank()) {
            throw new IllegalArgumentException("A column needs a name");
        }
        if (numeric != null && type != SqlType.DECIMAL) {
            throw new IllegalArgumentException("Only a numeric column has a precision and scale, not " + type);
        }
    }

    public Column(String name, SqlType type, boolean nullable) {
        this(name, type, nullable, null);
    }

    public static Column of(String name, SqlType type) {
        return new Column(name, type, true);
    }

    /** The type as PostgreSQL's {@code format_type} names it: {@code numeric(10,2)}, {@code integer}. */
    public String postgresTypeName() {
        return numeric == null ? type.postgresName() : numeric.toString();
    }

    /** PostgreSQL's typmod of the column: -1 unless it is a numeric with a precision. */
    public int typmod() {
        return numeric == null ? -1 : numeric.encoded();
    }

    /** This column under another name. */
    public Column named(String newName) {
        return new Column(newName, type, nullable, numeric);
    }

    /** This column, nullable or not. */
    public Column withNullable(boolean isNullable) {
        return new Column(name, type, isNullable, numeric);
    }
}
