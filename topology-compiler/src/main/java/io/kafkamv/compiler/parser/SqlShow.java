package io.kafkamv.compiler.parser;

import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code SHOW JOBS}, {@code SHOW TABLES}, ..., or {@code SHOW variable}. */
public final class SqlShow extends SqlCommand {

    public enum What { JOBS, TABLES, SOURCES, MATERIALIZED_VIEWS, SINKS, INDEXES, ALL, VARIABLE }

    private final What what;
    private final SqlIdentifier variable;

    private SqlShow(SqlParserPos pos, What what, SqlIdentifier variable) {
        super(pos, "SHOW");
        this.what = what;
        this.variable = variable;
    }

    public static SqlShow of(SqlParserPos pos, What what) {
        return new SqlShow(pos, what, null);
    }

    public static SqlShow variable(SqlParserPos pos, SqlIdentifier name) {
        return new SqlShow(pos, What.VARIABLE, name);
    }

    public What what() {
        return what;
    }

    /** The variable's name for {@code SHOW name}. */
    public Optional<String> variable() {
        return Optional.ofNullable(variable).map(id -> String.join(".", id.names));
    }
}
