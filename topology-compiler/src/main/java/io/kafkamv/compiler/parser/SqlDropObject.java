package io.kafkamv.compiler.parser;

import java.util.List;

import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code DROP {TABLE|SOURCE|MATERIALIZED VIEW|SINK|INDEX} [IF EXISTS] name [CASCADE]}. */
public final class SqlDropObject extends SqlDrop {

    private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP", SqlKind.OTHER_DDL);

    private final SqlObjectKind kind;
    private final SqlIdentifier name;
    private final boolean cascade;

    public SqlDropObject(SqlParserPos pos, SqlObjectKind kind, boolean ifExists, SqlIdentifier name,
                         boolean cascade) {
        super(OPERATOR, pos, ifExists);
        this.kind = kind;
        this.name = name;
        this.cascade = cascade;
    }

    public SqlObjectKind kind() {
        return kind;
    }

    public SqlIdentifier name() {
        return name;
    }

    public boolean ifExists() {
        return ifExists;
    }

    public boolean cascade() {
        return cascade;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("DROP " + kind.sql());
        if (ifExists) {
            writer.keyword("IF EXISTS");
        }
        name.unparse(writer, 0, 0);
        if (cascade) {
            writer.keyword("CASCADE");
        }
    }
}
