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

/** {@code CREATE TABLE} or {@code CREATE SOURCE}: columns, an optional primary key, WITH options. */
public final class SqlCreateRelation extends SqlCreate {

    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE RELATION", SqlKind.CREATE_TABLE);

    private final SqlObjectKind kind;
    private final SqlIdentifier name;
    private final SqlNodeList columns;
    private final SqlNodeList primaryKey;
    private final List<SourceInclude> includes;
    private final Map<String, String> options;

    public SqlCreateRelation(SqlParserPos pos, SqlObjectKind kind, boolean ifNotExists, SqlIdentifier name,
                             SqlNodeList columns, SqlNodeList primaryKey, List<SourceInclude> includes,
                             Map<String, String> options) {
        super(OPERATOR, pos, false, ifNotExists);
        this.kind = kind;
        this.name = name;
        this.columns = columns;
        this.primaryKey = primaryKey;
        this.includes = List.copyOf(includes);
        this.options = Map.copyOf(options);
    }

    public SqlObjectKind kind() {
        return kind;
    }

    public SqlIdentifier name() {
        return name;
    }

    /** {@link org.apache.calcite.sql.ddl.SqlColumnDeclaration}s in declaration order. */
    public SqlNodeList columns() {
        return columns;
    }

    public SqlNodeList primaryKey() {
        return primaryKey;
    }

    /** The source's {@code INCLUDE} clauses, in order. */
    public List<SourceInclude> includes() {
        return includes;
    }

    public Map<String, String> options() {
        return options;
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(name, columns, primaryKey);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("CREATE " + kind.sql());
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
        if (!columns.isEmpty()) {
            SqlWriter.Frame frame = writer.startList("(", ")");
            for (SqlNode column : columns) {
                writer.sep(",");
                column.unparse(writer, 0, 0);
            }
            if (!primaryKey.isEmpty()) {
                writer.sep(",");
                writer.keyword("PRIMARY KEY");
                SqlWriter.Frame keyFrame = writer.startList("(", ")");
                for (SqlNode key : primaryKey) {
                    writer.sep(",");
                    key.unparse(writer, 0, 0);
                }
                writer.endList(keyFrame);
            }
            writer.endList(frame);
        }
        for (SourceInclude include : includes) {
            writer.keyword("INCLUDE");
            writer.keyword(include.what().toUpperCase(java.util.Locale.ROOT));
            if (include.header() != null) {
                writer.literal(org.apache.calcite.sql.SqlDialect.DatabaseProduct.POSTGRESQL.getDialect()
                    .quoteStringLiteral(include.header()));
            }
            if (include.column() != null) {
                writer.keyword("AS");
                writer.identifier(include.column(), true);
            }
        }
        SqlOptions.unparse(writer, options);
    }
}
