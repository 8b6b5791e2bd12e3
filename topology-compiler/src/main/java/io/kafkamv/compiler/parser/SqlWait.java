package io.kafkamv.compiler.parser;

import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code WAIT} for every background job, or {@code WAIT MATERIALIZED VIEW name} for one. */
public final class SqlWait extends SqlCommand {

    private final SqlIdentifier view;

    public SqlWait(SqlParserPos pos, SqlIdentifier view) {
        super(pos, "WAIT");
        this.view = view;
    }

    public Optional<SqlIdentifier> view() {
        return Optional.ofNullable(view);
    }
}
