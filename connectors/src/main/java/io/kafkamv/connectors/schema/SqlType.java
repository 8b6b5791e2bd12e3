package io.kafkamv.connectors.schema;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The column types kafka-mv stores and moves between formats, named as PostgreSQL names them.
 *
 * <p>Formats decode into these types, the compiler plans with them and the endpoints describe
 * them to clients, so each of those speaks of one shared list.
 */
public enum SqlType {
    BOOLEAN("boolean"),
    SMALLINT("smallint"),
    INTEGER("integer"),
    BIGINT("bigint"),
    REAL("real"),
    DOUBLE("double precision"),
    DECIMAL("numeric"),
    VARCHAR("character varying"),
    DATE("date"),
    TIME("time without time zone"),
    TIMESTAMP("timestamp without time zone"),
    TIMESTAMPTZ("timestamp with time zone"),
    INTERVAL("interval"),
    BYTEA("bytea"),
    JSONB("jsonb");

    private static final Map<String, SqlType> ALIASES = Map.ofEntries(
        Map.entry("bool", BOOLEAN),
        Map.entry("boolean", BOOLEAN),
        Map.entry("int2", SMALLINT),
        Map.entry("smallint", SMALLINT),
        Map.entry("int", INTEGER),
        Map.entry("int4", INTEGER),
        Map.entry("integer", INTEGER),
        Map.entry("int8", BIGINT),
        Map.entry("bigint", BIGINT),
        Map.entry("float4", REAL),
        Map.entry("real", REAL),
        Map.entry("float8", DOUBLE),
        Map.entry("float", DOUBLE),
        Map.entry("double", DOUBLE),
        Map.entry("double precision", DOUBLE),
        Map.entry("decimal", DECIMAL),
        Map.entry("numeric", DECIMAL),
        Map.entry("varchar", VARCHAR),
        Map.entry("character varying", VARCHAR),
        Map.entry("text", VARCHAR),
        Map.entry("string", VARCHAR),
        Map.entry("date", DATE),
        Map.entry("time", TIME),
        Map.entry("timestamp", TIMESTAMP),
        Map.entry("timestamptz", TIMESTAMPTZ),
        Map.entry("timestamp with time zone", TIMESTAMPTZ),
        Map.entry("interval", INTERVAL),
        Map.entry("bytea", BYTEA),
        Map.entry("jsonb", JSONB),
        Map.entry("json", JSONB));

    private final String postgresName;

    SqlType(String postgresName) {
        this.postgresName = postgresName;
    }

    /** The name PostgreSQL's {@code format_type} gives this type, as psql shows it. */
    public String postgresName() {
        return postgresName;
    }

    /** Whether this is one of the integer types, smallint, integer and bigint. */
    public boolean isInteger() {
        return this == SMALLINT || this == INTEGER || this == BIGINT;
    }

    /** Every name a type goes by, in lower case, e.g. {@code int4} and {@code integer}. */
    public static Map<String, SqlType> names() {
        return ALIASES;
    }

    /** The type a name in a column definition means, e.g. {@code int4} or {@code TEXT}. */
    public static Optional<SqlType> fromName(String name) {
        String normalized = name.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        return Optional.ofNullable(ALIASES.get(normalized));
    }
}
