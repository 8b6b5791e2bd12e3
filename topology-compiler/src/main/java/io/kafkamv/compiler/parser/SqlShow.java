package io.kafkamv.compiler.parser;

import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code SHOW JOBS [LIKE 'pattern']}, {@code SHOW TABLES}, ..., or {@code SHOW variable}. */
public final class SqlShow extends SqlCommand {

    public enum What { JOBS, TABLES, SOURCES, MATERIALIZED_VIEWS, SINKS, INDEXES, ALL, VARIABLE }

    private final What what;
    private final SqlIdentifier variable;
    private final String like;

    private SqlShow(SqlParserPos pos, What what, SqlIdentifier variable, String like) {
        super(pos, "SHOW");
        this.what = what;
        this.variable = variable;
        this.like = like;
    }

    public static SqlShow of(SqlParserPos pos, What what) {
        return new SqlShow(pos, what, null, null);
    }

    public static SqlShow variable(SqlParserPos pos, SqlIdentifier name) {
        return new SqlShow(pos, What.VARIABLE, name, null);
    }

    /** {@code SHOW JOBS LIKE 'pattern'}. */
    public static SqlShow jobsLike(SqlParserPos pos, String pattern) {
        return new SqlShow(pos, What.JOBS, null, pattern);
    }

    /** The LIKE pattern of {@code SHOW JOBS LIKE 'pattern'}. */
    public Optional<String> like() {
        return Optional.ofNullable(like);
    }

    public What what() {
        return what;
    }

    /** The variable's name for {@code SHOW name}. */
    public Optional<String> variable() {
        return Optional.ofNullable(variable).map(id -> String.join(".", id.names));
    }
}
