package io.kafkamv.compiler.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code ALTER MATERIALIZED VIEW name SET option = value}. */
public final class SqlAlterMaterializedView extends SqlCommand {

    private final SqlIdentifier name;
    private final String option;
    private final SqlNode value;

    public SqlAlterMaterializedView(SqlParserPos pos, SqlIdentifier name, String option, SqlNode value) {
        super(pos, "ALTER MATERIALIZED VIEW");
        this.name = name;
        this.option = option;
        this.value = value;
    }

    public SqlIdentifier name() {
        return name;
    }

    /** The option's name, as folded by the parser (lower case unless quoted). */
    public String option() {
        return option;
    }

    /** The value as text: a literal's value or a name. */
    public String value() {
        return value instanceof SqlLiteral literal ? literal.toValue() : ((SqlIdentifier) value).getSimple();
    }
}
