package io.kafkamv.compiler.parser;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code CREATE SINK name FROM view WITH (...)} or {@code CREATE SINK name AS query WITH (...)}. */
public final class SqlCreateSink extends SqlCreate {

    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE SINK", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;
    private final SqlIdentifier from;
    private final SqlNode query;
    private final Map<String, String> options;

    public SqlCreateSink(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, SqlIdentifier from,
                         SqlNode query, Map<String, String> options) {
        super(OPERATOR, pos, false, ifNotExists);
        this.name = name;
        this.from = from;
        this.query = query;
        this.options = Map.copyOf(options);
    }

    public SqlIdentifier name() {
        return name;
    }

    public Optional<SqlIdentifier> from() {
        return Optional.ofNullable(from);
    }

    public Optional<SqlNode> query() {
        return Optional.ofNullable(query);
    }

    public Map<String, String> options() {
        return options;
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(name, from, query);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("CREATE SINK");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
        if (from != null) {
            writer.keyword("FROM");
            from.unparse(writer, 0, 0);
        } else {
            writer.keyword("AS");
            query.unparse(writer, 0, 0);
        }
        SqlOptions.unparse(writer, options);
    }
}
