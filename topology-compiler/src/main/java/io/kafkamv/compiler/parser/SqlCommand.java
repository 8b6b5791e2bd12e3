package io.kafkamv.compiler.parser;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** A statement that is a command to the service, not a query: SHOW, CANCEL JOBS, WAIT, FLUSH. */
public abstract class SqlCommand extends SqlCall {

    private final SqlOperator operator;

    protected SqlCommand(SqlParserPos pos, String name) {
        super(pos);
        this.operator = new SqlSpecialOperator(name, SqlKind.OTHER);
    }

    @Override
    public SqlOperator getOperator() {
        return operator;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of();
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword(operator.getName());
    }
}
