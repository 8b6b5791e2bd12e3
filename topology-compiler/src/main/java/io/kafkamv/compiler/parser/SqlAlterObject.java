package io.kafkamv.compiler.parser;

import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code ALTER {MATERIALIZED VIEW | SINK | INDEX} name SET option {= | TO} {value | DEFAULT}}. */
public final class SqlAlterObject extends SqlCommand {

    private final SqlObjectKind kind;
    private final SqlIdentifier name;
    private final String option;
    private final SqlNode value;

    /** {@code value} is null for DEFAULT. */
    public SqlAlterObject(SqlParserPos pos, SqlObjectKind kind, SqlIdentifier name, String option, SqlNode value) {
        super(pos, "ALTER " + kind.sql());
        this.kind = kind;
        this.name = name;
        this.option = option;
        this.value = value;
    }

    public SqlObjectKind kind() {
        return kind;
    }

    public SqlIdentifier name() {
        return name;
    }

    /** The option's name, as folded by the parser (lower case unless quoted). */
    public String option() {
        return option;
    }

    /** The value as text, a literal's value or a name; empty for DEFAULT. */
    public Optional<String> value() {
        if (value == null) {
            return Optional.empty();
        }
        return Optional.of(value instanceof SqlLiteral literal ? literal.toValue() : ((SqlIdentifier) value).getSimple());
    }
}
