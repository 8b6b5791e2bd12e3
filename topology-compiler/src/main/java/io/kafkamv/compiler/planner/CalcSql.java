package io.kafkamv.compiler.planner;

import java.util.ArrayList;
import java.util.List;

import io.kafkamv.compiler.types.PostgresTypeSystem;
import io.kafkamv.connectors.schema.RowSchema;
import org.apache.calcite.rel.rel2sql.SqlImplementor;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/** A {@code Calc}'s program as a query over a relation named {@code input}: how a CalcStep is stored. */
final class CalcSql {

    static final String INPUT = "input";
    private static final SqlDialect DIALECT = new PostgresCasts();

    private CalcSql() {
    }

    static String of(RexProgram program, RowSchema input) {
        SqlImplementor.SimpleContext context = new SqlImplementor.SimpleContext(DIALECT,
            index -> new SqlIdentifier(input.columns().get(index).name(), SqlParserPos.ZERO));
        List<String> items = new ArrayList<>();
        List<RexLocalRef> projects = program.getProjectList();
        List<RelDataTypeField> fields = program.getOutputRowType().getFieldList();
        for (int i = 0; i < projects.size(); i++) {
            String expression = context.toSql(program, projects.get(i)).toSqlString(DIALECT).getSql();
            items.add(expression + " AS " + DIALECT.quoteIdentifier(fields.get(i).getName()));
        }
        StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", items))
            .append(" FROM ").append(DIALECT.quoteIdentifier(INPUT));
        if (program.getCondition() != null) {
            sql.append(" WHERE ").append(context.toSql(program, program.getCondition()).toSqlString(DIALECT).getSql());
        }
        return sql.toString();
    }

    /**
     * Calcite's SQL, except that a cast to an unconstrained numeric is written {@code CAST(x AS DECIMAL)}, which
     * parses back into a numeric that keeps its digits; Calcite's dialect writes its type as decimal(19, 0).
     */
    private static final class PostgresCasts extends CalciteSqlDialect {
        PostgresCasts() {
            super(CalciteSqlDialect.DEFAULT_CONTEXT);
        }

        @Override
        public SqlNode getCastSpec(RelDataType type) {
            if (PostgresTypeSystem.isUnconstrained(type)) {
                return new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DECIMAL, SqlParserPos.ZERO),
                    SqlParserPos.ZERO);
            }
            return super.getCastSpec(type);
        }
    }
}
