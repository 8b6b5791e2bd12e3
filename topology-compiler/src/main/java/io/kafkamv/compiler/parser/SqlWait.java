package io.kafkamv.compiler.parser;

import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code WAIT} for every background job, or {@code WAIT MATERIALIZED VIEW | SINK | INDEX | TABLE name} for one. */
public final class SqlWait extends SqlCommand {

    /** One object to wait for. */
    public record Target(SqlObjectKind kind, String name) {
    }

    private final Target target;

    private SqlWait(SqlParserPos pos, Target target) {
        super(pos, "WAIT");
        this.target = target;
    }

    public static SqlWait all(SqlParserPos pos) {
        return new SqlWait(pos, null);
    }

    public static SqlWait of(SqlParserPos pos, SqlObjectKind kind, SqlIdentifier name) {
        return new SqlWait(pos, new Target(kind, name.getSimple()));
    }

    /** The object waited for, or empty for every background job. */
    public Optional<Target> target() {
        return Optional.ofNullable(target);
    }
}
