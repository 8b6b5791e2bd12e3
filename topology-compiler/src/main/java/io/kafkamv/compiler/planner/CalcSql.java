package io.kafkamv.compiler.planner;

import java.util.ArrayList;
import java.util.List;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.types.PostgresTypeSystem;
import io.kafkamv.connectors.schema.RowSchema;
import org.apache.calcite.rel.rel2sql.SqlImplementor;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlAbstractDateTimeLiteral;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
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
        return readable(sql.toString());
    }

    /**
     * The text, once it parses: it is all the view's job has where it starts, and Calcite can write SQL its own
     * parser cannot read back. A CREATE is refused rather than accepted as a job that fails. Parsing is enough
     * to catch that and costs about a millisecond; planning and compiling it here too would add tens of
     * milliseconds to every CREATE, which background DDL returns at once.
     */
    private static String readable(String sql) {
        try {
            SqlStatementParser.parse(sql);
        } catch (CompileException e) {
            throw new CompileException(CompileException.Category.UNSUPPORTED,
                "kafka-mv cannot store an expression of this query for its view (" + e.getMessage() + "): " + sql, 0,
                "This is a gap in kafka-mv; please report it with the statement. Writing the expression another way, "
                    + "for example with an explicit cast, may avoid it.");
        }
        return sql;
    }

    /**
     * Calcite's SQL, except for what it writes that its parser cannot read back: a cast to an unconstrained numeric
     * is written {@code CAST(x AS DECIMAL)}, which parses back into a numeric that keeps its digits (Calcite's
     * dialect writes its type as decimal(19, 0)), and a timestamptz literal is written as the cast of its UTC
     * timestamp (Calcite writes {@code TIMESTAMP_WITH_LOCAL_TIME_ZONE '...'}, which no parser reads).
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

        @Override
        public void unparseDateTimeLiteral(SqlWriter writer, SqlAbstractDateTimeLiteral literal, int leftPrec,
                int rightPrec) {
            if (literal.getTypeName() != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                super.unparseDateTimeLiteral(writer, literal, leftPrec, rightPrec);
                return;
            }
            writer.keyword("CAST");
            SqlWriter.Frame frame = writer.startList("(", ")");
            writer.keyword("TIMESTAMP");
            writer.literal("'" + literal.toFormattedString() + "'");
            writer.sep("AS");
            writer.keyword("TIMESTAMP WITH LOCAL TIME ZONE");
            writer.endList(frame);
        }
    }
}
