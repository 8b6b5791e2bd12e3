package io.kafkamv.compiler.parser;

/** The kinds of named objects a user creates and drops. */
public enum SqlObjectKind {
    TABLE("TABLE"),
    SOURCE("SOURCE"),
    MATERIALIZED_VIEW("MATERIALIZED VIEW"),
    SINK("SINK"),
    INDEX("INDEX");

    private final String sql;

    SqlObjectKind(String sql) {
        this.sql = sql;
    }

    /** How SQL names this kind, e.g. {@code MATERIALIZED VIEW}. */
    public String sql() {
        return sql;
    }

    /** The command tag PostgreSQL clients get for creating one, e.g. {@code CREATE MATERIALIZED VIEW}, as PostgreSQL names it. */
    public String createTag() {
        return "CREATE " + sql;
    }

    public String dropTag() {
        return "DROP " + sql;
    }
}
