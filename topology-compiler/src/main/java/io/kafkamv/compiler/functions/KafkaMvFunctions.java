package io.kafkamv.compiler.functions;

import io.kafkamv.compiler.postgres.UnconstrainedNumerics;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The functions kafka-mv adds to Calcite's, for views and queries alike: whoever plans SQL adds
 * them to its schema, so a stored step and an ad-hoc query read the same names the same way.
 */
public final class KafkaMvFunctions {

    /** {@code ->}, parsed into a call of {@code jsonb_field}. */
    public static final SqlBinaryOperator JSON_FIELD = new Arrow("->", "jsonb_field", "jsonb_element");

    /** {@code ->>}, parsed into a call of {@code jsonb_text_field}. */
    public static final SqlBinaryOperator JSON_TEXT_FIELD = new Arrow("->>", "jsonb_text_field", "jsonb_text_element");

    /**
     * PostgreSQL's {@code ^}, exponentiation: binds tighter than {@code *} and looser than a sign, from the left
     * ({@code 2 ^ 3 ^ 2} is 64, {@code -2 ^ 2} is 4), parsed into a call of {@code power}.
     */
    public static final SqlBinaryOperator POWER_OPERATOR = new Caret();

    /** PostgreSQL's {@code ts AT TIME ZONE zone}, parsed into a call of {@code timezone(zone, ts)}. */
    public static final SqlBinaryOperator AT_TIME_ZONE = new AtTimeZone();

    private KafkaMvFunctions() {
    }

    public static void addTo(SchemaPlus schema) {
        schema.add("length", ScalarFunctionImpl.create(TextFunctions.class, "length"));
        schema.add(TextFunctions.LEFT, ScalarFunctionImpl.create(TextFunctions.class, "left"));
        schema.add(TextFunctions.RIGHT, ScalarFunctionImpl.create(TextFunctions.class, "right"));
        schema.add("reverse", ScalarFunctionImpl.create(TextFunctions.class, "reverse"));
        schema.add("btrim", ScalarFunctionImpl.create(TextFunctions.class, "btrim"));
        schema.add("btrim", ScalarFunctionImpl.create(TextFunctions.class, "btrimSpaces"));
        schema.add(TextFunctions.LTRIM, ScalarFunctionImpl.create(TextFunctions.class, "ltrim"));
        schema.add(TextFunctions.LTRIM, ScalarFunctionImpl.create(TextFunctions.class, "ltrimSpaces"));
        schema.add(TextFunctions.RTRIM, ScalarFunctionImpl.create(TextFunctions.class, "rtrim"));
        schema.add(TextFunctions.RTRIM, ScalarFunctionImpl.create(TextFunctions.class, "rtrimSpaces"));
        schema.add("quote_literal", ScalarFunctionImpl.create(TextFunctions.class, "quoteLiteral"));
        schema.add("quote_nullable", ScalarFunctionImpl.create(TextFunctions.class, "quoteNullable"));
        schema.add("gen_random_uuid", ScalarFunctionImpl.create(TextFunctions.class, "genRandomUuid"));
        schema.add(TextFunctions.STRING_TO_ARRAY, TextArrayFunction.of("stringToArray", 2));
        schema.add(TextFunctions.SUBSTRING_MATCH, ScalarFunctionImpl.create(TextFunctions.class, "substringMatch"));
        schema.add("regexp_match", TextArrayFunction.of("regexpMatch", 2));
        schema.add("regexp_match", TextArrayFunction.of("regexpMatch", 3));
        schema.add("version", ScalarFunctionImpl.create(SystemFunctions.class, "version"));
        schema.add(SystemFunctions.CURRENT_SCHEMA, ScalarFunctionImpl.create(SystemFunctions.class, "currentSchema"));
        schema.add("current_database", ScalarFunctionImpl.create(SystemFunctions.class, "currentDatabase"));
        schema.add("pg_sleep", ScalarFunctionImpl.create(SystemFunctions.class, "pgSleep"));
        schema.add(SystemFunctions.CURRENT_SETTING, ScalarFunctionImpl.create(SystemFunctions.class, "currentSetting"));
        schema.add(SystemFunctions.PG_TYPEOF, ScalarFunctionImpl.create(SystemFunctions.class, "pgTypeof"));
        schema.add(UnconstrainedNumerics.FUNCTION_NAME, UnconstrainedNumerics.function());
        DateTruncFunction.addTo(schema);
        DatePartFunction.addTo(schema);
        schema.add(EpochFunction.NAME, new EpochFunction());
        DateDifferenceFunction.addTo(schema);
        AgeFunction.addTo(schema);
        TimeZoneFunction.addTo(schema);
        NumericFunctions.addTo(schema);
        JsonbFunctions.addTo(schema);
        DateConstructors.addTo(schema);
        ByteaEncodings.addTo(schema);
    }

    /** Whether a call was written as an operator ({@code ->}, {@code ->>}, {@code ^}), which PostgreSQL names ?column?. */
    public static boolean isOperator(SqlCall call) {
        if (call.getOperator() instanceof PowerByCaret || PostgresOperators.isOperator(call)) {
            return true;
        }
        String name = call.getOperator().getName();
        return name.equals("jsonb_field") || name.equals("jsonb_element") || name.equals("jsonb_text_field")
            || name.equals("jsonb_text_element");
    }

    /**
     * A binary operator to the parser, with PostgreSQL's precedence; a function call after parsing:
     * the element function when the selector is a number, the field function otherwise.
     */
    private static final class Arrow extends SqlBinaryOperator {
        private final String field;
        private final String element;

        Arrow(String name, String field, String element) {
            super(name, SqlKind.OTHER, 60, true, null, null, null);
            this.field = field;
            this.element = element;
        }

        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands) {
            boolean index = operands.length == 2 && operands[1] instanceof SqlNumericLiteral;
            return new SqlUnresolvedFunction(new SqlIdentifier(index ? element : field, pos), null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION).createCall(functionQualifier, pos, operands);
        }
    }

    private static final class Caret extends SqlBinaryOperator {
        Caret() {
            super("^", SqlKind.OTHER, 70, true, null, null, null);
        }

        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands) {
            return new PowerByCaret(pos).createCall(functionQualifier, pos, operands);
        }
    }

    /** Calcite's {@code POWER} once validated (it looks the call up by name); written as {@code ^} until then. */
    private static final class PowerByCaret extends SqlUnresolvedFunction {
        PowerByCaret(SqlParserPos pos) {
            super(new SqlIdentifier("POWER", pos), null, null, null, null, SqlFunctionCategory.NUMERIC);
        }
    }

    /** Binds tighter than {@code ^} and looser than a sign, as in PostgreSQL. */
    private static final class AtTimeZone extends SqlBinaryOperator {
        AtTimeZone() {
            super("AT TIME ZONE", SqlKind.OTHER, 74, true, null, null, null);
        }

        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands) {
            return new SqlUnresolvedFunction(new SqlIdentifier(TimeZoneFunction.NAME, pos), null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION).createCall(functionQualifier, pos, operands[1], operands[0]);
        }
    }
}
