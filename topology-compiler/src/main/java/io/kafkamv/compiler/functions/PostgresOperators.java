package io.kafkamv.compiler.functions;

import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlPrefixOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * PostgreSQL's bitwise operators on integers and its jsonb operators, each parsed into a call of the function that
 * does its work ({@link NumericFunctions}, {@link JsonbFunctions}), so views and queries
 * plan and store them as any call. They bind as PostgreSQL's "any other operator": looser than {@code +} and
 * {@code -}, tighter than comparisons, from the left ({@code 2 + 5 & 1} is {@code (2 + 5) & 1}).
 */
public final class PostgresOperators {

    /** Between Calcite's {@code +} (40) and its comparisons (30), where Calcite puts {@code <<}. */
    private static final int OTHER_OPERATOR_PRECEDENCE = 32;

    public static final SqlBinaryOperator BIT_AND = infix("&", NumericFunctions.BIT_AND);
    public static final SqlBinaryOperator BIT_OR = infix("|", NumericFunctions.BIT_OR);
    public static final SqlBinaryOperator BIT_XOR = infix("#", NumericFunctions.BIT_XOR);
    public static final SqlBinaryOperator SHIFT_RIGHT = infix(">>", NumericFunctions.SHIFT_RIGHT);
    public static final SqlPrefixOperator BIT_NOT = new Prefix("~", NumericFunctions.BIT_NOT);

    public static final SqlBinaryOperator JSONB_EXISTS = infix("?", "jsonb_exists");
    public static final SqlBinaryOperator JSONB_EXISTS_ANY = infix("?|", "jsonb_exists_any");
    public static final SqlBinaryOperator JSONB_EXISTS_ALL = infix("?&", "jsonb_exists_all");
    public static final SqlBinaryOperator JSONB_CONTAINS = infix("@>", "jsonb_contains");
    public static final SqlBinaryOperator JSONB_CONTAINED = infix("<@", "jsonb_contained");
    public static final SqlBinaryOperator JSONB_PATH = infix("#>", JsonbFunctions.PATH);
    public static final SqlBinaryOperator JSONB_TEXT_PATH = infix("#>>", JsonbFunctions.TEXT_PATH);

    private PostgresOperators() {
    }

    /** Whether a call was written as one of these operators, which PostgreSQL names ?column?. */
    static boolean isOperator(SqlCall call) {
        return call.getOperator() instanceof WrittenAsOperator;
    }

    private static SqlBinaryOperator infix(String spelling, String function) {
        return new Infix(spelling, function);
    }

    private static final class Infix extends SqlBinaryOperator {
        private final String function;

        Infix(String spelling, String function) {
            super(spelling, SqlKind.OTHER, OTHER_OPERATOR_PRECEDENCE, true, null, null, null);
            this.function = function;
        }

        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands) {
            return new WrittenAsOperator(function, pos).createCall(functionQualifier, pos, operands);
        }
    }

    private static final class Prefix extends SqlPrefixOperator {
        private final String function;

        Prefix(String spelling, String function) {
            super(spelling, SqlKind.OTHER, OTHER_OPERATOR_PRECEDENCE, null, null, null);
            this.function = function;
        }

        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands) {
            return new WrittenAsOperator(function, pos).createCall(functionQualifier, pos, operands);
        }
    }

    /** The function an operator stands for, until the validator looks it up by name. */
    private static final class WrittenAsOperator extends SqlUnresolvedFunction {
        WrittenAsOperator(String function, SqlParserPos pos) {
            super(new SqlIdentifier(function, pos), null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION);
        }
    }
}
