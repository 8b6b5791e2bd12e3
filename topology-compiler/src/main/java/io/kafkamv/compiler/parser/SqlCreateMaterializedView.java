package io.kafkamv.compiler.parser;

import java.util.List;
import java.util.Map;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code CREATE MATERIALIZED VIEW [IF NOT EXISTS] name [WITH (option = value, ...)] AS query}. */
public final class SqlCreateMaterializedView extends SqlCreate {

    private static final SqlOperator OPERATOR =
        new SqlSpecialOperator("CREATE MATERIALIZED VIEW", SqlKind.CREATE_MATERIALIZED_VIEW);

    private final SqlIdentifier name;
    private final SqlNode query;
    private final Map<String, String> options;

    public SqlCreateMaterializedView(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, SqlNode query) {
        this(pos, ifNotExists, name, Map.of(), query);
    }

    public SqlCreateMaterializedView(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name,
                                     Map<String, String> options, SqlNode query) {
        super(OPERATOR, pos, false, ifNotExists);
        this.name = name;
        this.query = query;
        this.options = Map.copyOf(options);
    }

    /** The job's options, e.g. {@code backfill_rate_limit}, by their lower-case names. */
    public Map<String, String> options() {
        return options;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlNode query() {
        return query;
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(name, query);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("CREATE MATERIALIZED VIEW");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
        writer.keyword("AS");
        query.unparse(writer, 0, 0);
    }
}
