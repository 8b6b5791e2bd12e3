package io.kafkamv.compiler.parser;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code EXPLAIN statement}: how kafka-mv would run it, without running it. */
public final class SqlExplainStatement extends SqlCommand {

    private final SqlNode statement;

    public SqlExplainStatement(SqlParserPos pos, SqlNode statement) {
        super(pos, "EXPLAIN");
        this.statement = statement;
    }

    /** A {@link SqlCreateMaterializedView} or a query. */
    public SqlNode statement() {
        return statement;
    }
}
