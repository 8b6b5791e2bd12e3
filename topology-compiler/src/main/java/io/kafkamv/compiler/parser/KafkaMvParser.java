package io.kafkamv.compiler.parser;

import java.io.Reader;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.functions.DatePartFunction;
import io.kafkamv.compiler.functions.JsonbFunctions;
import io.kafkamv.compiler.functions.KafkaMvFunctions;
import io.kafkamv.compiler.functions.PostgresLibraryFunctions;
import io.kafkamv.compiler.functions.SystemFunctions;
import io.kafkamv.compiler.functions.TextFunctions;
import io.kafkamv.compiler.parser.impl.KafkaMvSqlParserImpl;
import io.kafkamv.compiler.postgres.BooleanCasts;
import io.kafkamv.compiler.postgres.DatetimeArithmetic;
import io.kafkamv.compiler.postgres.PostgresIntervals;
import io.kafkamv.compiler.postgres.UnconstrainedNumerics;
import io.kafkamv.compiler.types.InvalidInputException;
import io.kafkamv.compiler.types.PostgresInterval;
import io.kafkamv.compiler.types.PostgresTextInput;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.SourceStringReader;

/**
 * kafka-mv's parser: the generated grammar, then what PostgreSQL accepts that Calcite's grammar and
 * runtime read otherwise, rewritten in the tree. Every path parses with it (views, queries on Calcite's
 * JDBC driver, writes), so a rule here holds for all of them:
 * <ul>
 * <li>a string literal cast to a type ({@code '2026-01-01T00:01:00'::timestamp}, {@code 'yes'::boolean},
 * {@code ' 42 '::int}) is read with PostgreSQL's input forms, and one PostgreSQL refuses is refused here
 * with its error and position (see {@link PostgresTextInput});
 * <li>a cast to {@code numeric} without a precision keeps the value's digits ({@code 1.50::numeric} is 1.50): it is
 * a call of {@code to_numeric}, which Calcite cannot fold into a constant of scale 0 as it folds a cast (see
 * {@link UnconstrainedNumerics});
 * <li>{@code now()} and {@code current_timestamp} are the statement's time as a timestamptz, as in PostgreSQL (Calcite's
 * current_timestamp is a timestamp), and a select item {@code now()} is named now;
 * <li>a call of a function of Calcite's PostgreSQL library is found whatever its case (see
 * {@link PostgresLibraryFunctions});
 * <li>{@code +} and {@code -} take PostgreSQL's dates and timestamps ({@code ts - ts} is an interval, see
 * {@link DatetimeArithmetic}), and booleans and integers cast to each other ({@link BooleanCasts}).
 * </ul>
 */
public final class KafkaMvParser extends KafkaMvSqlParserImpl {

    public static final SqlParserImplFactory FACTORY = reader -> {
        if (reader instanceof SourceStringReader source) {
            String sql = withoutEmptyParentheses(source.getSourceString());
            KafkaMvParser parser = new KafkaMvParser(new SourceStringReader(sql));
            parser.setOriginalSql(sql);
            return parser;
        }
        return new KafkaMvParser(reader);
    };

    /** {@code current_schema()}, PostgreSQL's function form of SQL's {@code current_schema}, which Calcite's grammar lacks. */
    private static final Pattern CURRENT_SCHEMA_CALL = Pattern.compile("(?i)\\bcurrent_schema\\s*\\(\\s*\\)");

    /**
     * The text with {@code current_schema()} read as {@code current_schema}; the parentheses become spaces, so
     * every position in an error stays where the user wrote it. (Inside a string it is rewritten too, which only
     * a string that spells the call itself would notice.)
     */
    private static String withoutEmptyParentheses(String sql) {
        Matcher call = CURRENT_SCHEMA_CALL.matcher(sql);
        StringBuilder out = new StringBuilder(sql.length());
        while (call.find()) {
            call.appendReplacement(out, "current_schema" + " ".repeat(call.group().length() - "current_schema".length()));
        }
        return call.appendTail(out).toString();
    }

    private KafkaMvParser(Reader reader) {
        super(reader);
    }

    @Override
    public SqlNode parseSqlStmtEof() throws Exception {
        return postgres(super.parseSqlStmtEof());
    }

    @Override
    public SqlNodeList parseSqlStmtList() throws Exception {
        return (SqlNodeList) postgres(super.parseSqlStmtList());
    }

    @Override
    public SqlNode parseSqlExpressionEof() throws Exception {
        return postgres(super.parseSqlExpressionEof());
    }

    private SqlNode postgres(SqlNode node) {
        return node == null ? null : node.accept(new CastLiterals(getOriginalSql()));
    }

    /** Casts of string literals, their text in the form Calcite reads. */
    private static final class CastLiterals extends SqlShuttle {

        private final String sql;

        CastLiterals(String sql) {
            this.sql = sql;
        }

        /**
         * Rewrites in place: Calcite's shuttle would copy a changed call through its operator, which makes a
         * plain call of our statements ({@code CREATE MATERIALIZED VIEW}).
         */
        @Override
        public SqlNode visit(SqlCall call) {
            SqlCharStringLiteral intervalText = PostgresIntervals.text(call);
            if (intervalText != null) {
                return interval(intervalText);
            }
            if (call.getKind() == SqlKind.CAST && call.operandCount() == 2
                && call.operand(1) instanceof SqlDataTypeSpec spec) {
                return cast(call, spec);
            }
            if (call.getKind() == SqlKind.ROW) {
                return valuesRow(call);
            }
            if (call.getKind() == SqlKind.EXTRACT && call.operand(0) instanceof SqlIntervalQualifier field) {
                return extract(call, field);
            }
            if (isNow(call)) {
                return now(call.getParserPosition());
            }
            if ((call.getKind() == SqlKind.LIKE || call.getKind() == SqlKind.SIMILAR) && call.operandCount() == 2) {
                // PostgreSQL's LIKE and SIMILAR TO escape with a backslash unless told otherwise; SQL's have no escape:
                // 'a_c' LIKE 'a\_c' was false.
                visitOperands(call);
                return call.getOperator().createCall(call.getFunctionQuantifier(), call.getParserPosition(),
                    call.operand(0), call.operand(1), SqlLiteral.createCharString("\\", call.getParserPosition()));
            }
            if (call.getOperator() == SqlStdOperatorTable.SUBSTRING && call.operandCount() == 2
                && call.operand(1) instanceof SqlCharStringLiteral) {
                // PostgreSQL's substring(text FROM pattern) with a text is a regular expression's match; Calcite's
                // took the pattern for a start position.
                visitOperands(call);
                return new SqlUnresolvedFunction(new SqlIdentifier(TextFunctions.SUBSTRING_MATCH, call.getParserPosition()),
                    null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION)
                    .createCall(call.getParserPosition(), call.getOperandList());
            }
            if (call instanceof SqlBasicCall basic && basic.getOperator() instanceof SqlUnresolvedFunction function
                && !KafkaMvFunctions.isOperator(call)) {
                libraryFunction(function).ifPresent(basic::setOperator);
                if (basic.getOperator().getName().equals("TO_TIMESTAMP") && basic.operandCount() == 2) {
                    // Calcite's to_timestamp(text, format) is a timestamp; PostgreSQL's is a timestamptz.
                    SqlParserPos pos = call.getParserPosition();
                    visitOperands(call);
                    return SqlStdOperatorTable.CAST.createCall(pos, call, new SqlDataTypeSpec(
                        new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3, pos), pos));
                }
            }
            if (call instanceof SqlBasicCall basic) {
                DatetimeArithmetic.adopt(basic);
            }
            if (call instanceof SqlSelect select) {
                nameNowColumns(select);
            }
            visitOperands(call);
            return call;
        }

        private void visitOperands(SqlCall call) {
            List<SqlNode> operands = call.getOperandList();
            for (int i = 0; i < operands.size(); i++) {
                SqlNode operand = operands.get(i);
                SqlNode visited = operand == null ? null : operand.accept(this);
                if (visited != operand) {
                    call.setOperand(i, visited);
                }
            }
        }

        /**
         * {@code current_schema} is a call of our function of that name: Calcite's own cannot run. A quoted
         * {@code "current_schema"} stays a column, as in PostgreSQL.
         */
        @Override
        public SqlNode visit(SqlIdentifier identifier) {
            if (identifier.isSimple() && !identifier.isComponentQuoted(0)
                && identifier.getSimple().equalsIgnoreCase("current_timestamp")) {
                return now(identifier.getParserPosition());
            }
            if (identifier.isSimple() && !identifier.isComponentQuoted(0)
                && identifier.getSimple().equalsIgnoreCase("current_schema")) {
                return new SqlUnresolvedFunction(new SqlIdentifier(SystemFunctions.CURRENT_SCHEMA,
                    identifier.getParserPosition()), null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION)
                    .createCall(identifier.getParserPosition());
            }
            return identifier;
        }

        /** {@code TIME '12:00'}, {@code DATE '...'}, {@code TIMESTAMP '...'}: their text in PostgreSQL's input forms too. */
        @Override
        public SqlNode visit(SqlLiteral literal) {
            if (literal instanceof SqlUnknownLiteral unknown) {
                SqlType type = switch (unknown.tag) {
                    case "DATE" -> SqlType.DATE;
                    case "TIME" -> SqlType.TIME;
                    case "TIMESTAMP" -> SqlType.TIMESTAMP;
                    case "TIMESTAMP WITH LOCAL TIME ZONE" -> SqlType.TIMESTAMPTZ;
                    default -> null;
                };
                if (type != null) {
                    return calciteText(literal, unknown.getValue(), type)
                        .map(text -> SqlLiteral.createUnknown(unknown.tag, text, literal.getParserPosition()))
                        .orElse(literal);
                }
            }
            return literal;
        }

        @Override
        public SqlNode visit(SqlNodeList list) {
            for (int i = 0; i < list.size(); i++) {
                SqlNode item = list.get(i);
                SqlNode visited = item == null ? null : item.accept(this);
                if (visited != item) {
                    list.set(i, visited);
                }
            }
            return list;
        }

        /**
         * A row of VALUES whose numbers with decimals or an exponent are unconstrained numerics, as in PostgreSQL:
         * Calcite gives the column of {@code VALUES (1.5), (2.125)} the type decimal(4, 3), and 1.5 became 1.500; and
         * {@code 1e2} is a double to Calcite, stored as 100.0 and rounded to an integer half to even.
         */
        private SqlNode valuesRow(SqlCall row) {
            List<SqlNode> values = row.getOperandList();
            for (int i = 0; i < values.size(); i++) {
                SqlNode value = values.get(i);
                SqlNode number = value.getKind() == SqlKind.MINUS_PREFIX ? ((SqlCall) value).operand(0) : value;
                if (number instanceof SqlNumericLiteral literal
                    && (!literal.isExact() || literal.getScale() != null && literal.getScale() > 0)) {
                    row.setOperand(i, UnconstrainedNumerics.TO_NUMERIC_CALL.createCall(value.getParserPosition(), value));
                } else {
                    row.setOperand(i, value.accept(this));
                }
            }
            return row;
        }

        /**
         * {@code EXTRACT(field FROM source)} as PostgreSQL computes it (see {@link DatePartFunction}), the field as
         * the text PostgreSQL's {@code date_part} takes.
         */
        private SqlNode extract(SqlCall call, SqlIntervalQualifier field) {
            String name = field.timeFrameName != null ? field.timeFrameName : field.timeUnitRange.name();
            SqlParserPos pos = call.getParserPosition();
            return new SqlUnresolvedFunction(new SqlIdentifier(DatePartFunction.EXTRACT, pos), null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION).createCall(pos,
                SqlLiteral.createCharString(name.toLowerCase(Locale.ROOT), field.getParserPosition()),
                call.operand(1).accept(this));
        }

        /** A call of a function of Calcite's PostgreSQL library under the name that library knows it by. */
        private static Optional<SqlUnresolvedFunction> libraryFunction(SqlUnresolvedFunction function) {
            SqlIdentifier name = function.getSqlIdentifier();
            if (name == null || !name.isSimple() || name.isComponentQuoted(0)) {
                return Optional.empty();
            }
            return PostgresLibraryFunctions.libraryName(name.getSimple()).map(library -> new SqlUnresolvedFunction(
                new SqlIdentifier(library, name.getParserPosition()), null, null, null, null, function.getFunctionType()));
        }

        /** {@code now()}, PostgreSQL's name of the statement's {@code current_timestamp}, a timestamptz. */
        private static boolean isNow(SqlNode node) {
            return node instanceof SqlCall call && call.getOperator() instanceof SqlUnresolvedFunction function
                && function.getName().equalsIgnoreCase("now") && call.operandCount() == 0;
        }

        private static SqlNode now(SqlParserPos pos) {
            return SqlStdOperatorTable.CAST.createCall(pos, SqlStdOperatorTable.CURRENT_TIMESTAMP.createCall(pos),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3, pos), pos));
        }

        /** A select item {@code now()} is a column named now, as in PostgreSQL, whatever it becomes. */
        private static void nameNowColumns(SqlSelect select) {
            SqlNodeList items = select.getSelectList();
            for (int i = 0; items != null && i < items.size(); i++) {
                SqlNode item = items.get(i);
                if (isNow(item)) {
                    items.set(i, SqlStdOperatorTable.AS.createCall(item.getParserPosition(), now(item.getParserPosition()),
                        new SqlIdentifier("now", item.getParserPosition())));
                }
            }
        }

        private SqlNode cast(SqlCall call, SqlDataTypeSpec spec) {
            SqlType type = typeOf(spec);
            SqlNode operand = call.operand(0);
            if (type == SqlType.INTERVAL && operand instanceof SqlCharStringLiteral literal) {
                return interval(literal);
            }
            if (type == SqlType.BYTEA && operand instanceof SqlCharStringLiteral literal) {
                operand = SqlLiteral.createBinaryString(bytea(literal), literal.getParserPosition());
            } else if (type != null && operand instanceof SqlCharStringLiteral literal) {
                operand = calciteText(literal, type).map(text -> (SqlNode) SqlLiteral.createCharString(text,
                    literal.getParserPosition())).orElse(operand);
            } else {
                operand = operand.accept(this);
                if (type == SqlType.BOOLEAN || type == SqlType.SMALLINT || type == SqlType.INTEGER || type == SqlType.BIGINT) {
                    ((SqlBasicCall) call).setOperator(BooleanCasts.CAST);
                }
            }
            if (type == SqlType.JSONB && spec.getTypeNameSpec().getTypeName().getSimple().equalsIgnoreCase("jsonb")
                && !(operand instanceof SqlCall inner && inner.getOperator().getName().equals(JsonbFunctions.TO_JSONB))) {
                // jsonb is text here, printed as PostgreSQL prints a jsonb; json keeps the text as written, as there.
                operand = new SqlUnresolvedFunction(new SqlIdentifier(JsonbFunctions.TO_JSONB, call.getParserPosition()),
                    null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION)
                    .createCall(call.getParserPosition(), operand);
            }
            if (type == SqlType.DECIMAL && spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic
                && basic.getPrecision() < 0) {
                return UnconstrainedNumerics.TO_NUMERIC_CALL.createCall(call.getParserPosition(), operand);
            }
            call.setOperand(0, operand);
            return call;
        }

        private SqlNode interval(SqlCharStringLiteral text) {
            PostgresInterval interval;
            try {
                interval = PostgresInterval.parse(text.getValueAs(String.class));
            } catch (InvalidInputException e) {
                throw invalid(text, e);
            }
            try {
                return PostgresIntervals.literal(interval, text.getParserPosition());
            } catch (PostgresIntervals.MixedIntervalException e) {
                throw new CompileException(CompileException.Category.UNSUPPORTED, e.getMessage() + ": '"
                    + text.getValueAs(String.class) + "'", positionOf(text),
                    "Add the parts one at a time, as in ts + interval '1 month' + interval '2 days'.");
            }
        }

        private int positionOf(SqlNode node) {
            return sql == null ? 0 : CompileException.positionOf(sql, node.getParserPosition());
        }

        private byte[] bytea(SqlCharStringLiteral literal) {
            try {
                return PostgresTextInput.bytea(literal.getValueAs(String.class));
            } catch (InvalidInputException e) {
                throw invalid(literal, e);
            }
        }

        private Optional<String> calciteText(SqlCharStringLiteral literal, SqlType type) {
            return calciteText(literal, literal.getValueAs(String.class), type);
        }

        private Optional<String> calciteText(SqlLiteral literal, String text, SqlType type) {
            try {
                return PostgresTextInput.toCalcite(text, type);
            } catch (InvalidInputException e) {
                throw invalid(literal, e);
            }
        }

        private CompileException invalid(SqlLiteral literal, InvalidInputException e) {
            int position = positionOf(literal);
            CompileException.Category category = switch (e.reason()) {
                case SYNTAX -> CompileException.Category.INVALID_TEXT;
                case DATETIME_SYNTAX -> CompileException.Category.INVALID_DATETIME;
                case DATETIME_FIELD_OUT_OF_RANGE -> CompileException.Category.DATETIME_FIELD_OUT_OF_RANGE;
                case OUT_OF_RANGE -> CompileException.Category.VALUE_OUT_OF_RANGE;
                case INVALID_PARAMETER -> CompileException.Category.INVALID_OPTION;
                case UNSUPPORTED, INVALID_REGULAR_EXPRESSION -> CompileException.Category.UNSUPPORTED;
            };
            return new CompileException(category, e.getMessage(), position, null);
        }

        private static SqlType typeOf(SqlDataTypeSpec spec) {
            String name = spec.getTypeNameSpec().getTypeName().toString().toLowerCase(Locale.ROOT);
            return switch (name) {
                case "timestamp_with_local_time_zone" -> SqlType.TIMESTAMPTZ;
                default -> SqlType.names().get(name);
            };
        }
    }
}
