package io.kafkamv.compiler.parser;

import java.io.Reader;
import java.util.Locale;
import java.util.Optional;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.parser.impl.KafkaMvSqlParserImpl;
import io.kafkamv.compiler.types.InvalidInputException;
import io.kafkamv.compiler.types.PostgresTextInput;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.SourceStringReader;

/**
 * kafka-mv's parser: the generated grammar, then what PostgreSQL accepts that Calcite's grammar and
 * runtime read otherwise, rewritten in the tree. Every path parses with it (views, queries on Calcite's
 * JDBC driver, writes), so a rule here holds for all of them:
 * <ul>
 * <li>a string literal cast to a type ({@code '2026-01-01T00:01:00'::timestamp}, {@code 'yes'::boolean},
 * {@code ' 42 '::int}) is read with PostgreSQL's input forms, and one PostgreSQL refuses is refused here
 * with its error and position (see {@link PostgresTextInput}).
 * </ul>
 */
public final class KafkaMvParser extends KafkaMvSqlParserImpl {

    public static final SqlParserImplFactory FACTORY = reader -> {
        KafkaMvParser parser = new KafkaMvParser(reader);
        if (reader instanceof SourceStringReader source) {
            parser.setOriginalSql(source.getSourceString());
        }
        return parser;
    };

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

        @Override
        public SqlNode visit(SqlCall call) {
            if (call.getKind() == SqlKind.CAST && call.operandCount() == 2
                && call.operand(0) instanceof SqlCharStringLiteral literal
                && call.operand(1) instanceof SqlDataTypeSpec spec) {
                SqlType type = typeOf(spec);
                if (type != null) {
                    calciteText(literal, type).ifPresent(text ->
                        call.setOperand(0, SqlLiteral.createCharString(text, literal.getParserPosition())));
                    return call;
                }
            }
            return super.visit(call);
        }

        private Optional<String> calciteText(SqlCharStringLiteral literal, SqlType type) {
            try {
                return PostgresTextInput.toCalcite(literal.getValueAs(String.class), type);
            } catch (InvalidInputException e) {
                int position = sql == null ? 0 : CompileException.positionOf(sql, literal.getParserPosition());
                CompileException.Category category = switch (e.reason()) {
                    case SYNTAX -> CompileException.Category.INVALID_TEXT;
                    case DATETIME_SYNTAX -> CompileException.Category.INVALID_DATETIME;
                    case DATETIME_FIELD_OUT_OF_RANGE -> CompileException.Category.DATETIME_FIELD_OUT_OF_RANGE;
                    case OUT_OF_RANGE -> CompileException.Category.VALUE_OUT_OF_RANGE;
                    case UNKNOWN_TIME_ZONE -> CompileException.Category.INVALID_OPTION;
                };
                throw new CompileException(category, e.getMessage(), position, null);
            }
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
