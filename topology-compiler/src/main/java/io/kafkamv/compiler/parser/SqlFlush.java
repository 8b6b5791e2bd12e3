package io.kafkamv.compiler.parser;

import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code FLUSH}: returns once this session's writes are acknowledged and visible to views. */
public final class SqlFlush extends SqlCommand {

    public SqlFlush(SqlParserPos pos) {
        super(pos, "FLUSH");
    }
}
