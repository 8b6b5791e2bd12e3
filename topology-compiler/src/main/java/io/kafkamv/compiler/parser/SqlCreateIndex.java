package io.kafkamv.compiler.parser;

import java.util.List;
import java.util.Map;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code CREATE INDEX name ON view (columns)}: the view re-keyed for lookups by other columns. */
public final class SqlCreateIndex extends SqlCreate {

    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX);

    private final SqlIdentifier name;
    private final SqlIdentifier on;
    private final SqlNodeList columns;
    private final Map<String, String> options;

    public SqlCreateIndex(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, SqlIdentifier on,
                          SqlNodeList columns, Map<String, String> options) {
        super(OPERATOR, pos, false, ifNotExists);
        this.name = name;
        this.on = on;
        this.columns = columns;
        this.options = Map.copyOf(options);
    }

    /** The job's options, e.g. {@code backfill_rate_limit}, by their lower-case names. */
    public Map<String, String> options() {
        return options;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlIdentifier on() {
        return on;
    }

    public SqlNodeList columns() {
        return columns;
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(name, on, columns);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("CREATE INDEX");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
        writer.keyword("ON");
        on.unparse(writer, 0, 0);
        SqlWriter.Frame frame = writer.startList("(", ")");
        for (SqlNode column : columns) {
            writer.sep(",");
            column.unparse(writer, 0, 0);
        }
        writer.endList(frame);
    }
}
