package io.kafkamv.service.statement;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.kafkamv.compiler.postgres.UnconstrainedNumerics;
import io.kafkamv.compiler.types.InvalidInputException;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlErrors;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The rows of {@code VALUES (...), ...} when every value is a constant: a number, a string, a boolean or NULL, as a
 * client writes them or its bound parameters become (a float parameter is a number cast to double or real). Such an
 * INSERT needs no query: through Calcite, each one was parsed again, validated, optimized and compiled to bytecode,
 * 43% of the service's CPU samples at 1,000 single-row INSERTs a second (issue 21). Each value is the Java value
 * Calcite's driver returns for it, so that the columns convert it as before; anything else (an expression, a typed
 * literal such as {@code DATE '...'}, rows of different widths, a number too large for a bigint) is left to the query.
 */
final class LiteralRows {

    /** What {@link #constant} gives for a node that is not a constant. */
    private static final Object NOT_CONSTANT = new Object();

    private LiteralRows() {
    }

    /** The rows of the source, or empty when it is not a VALUES of constants only. */
    static Optional<List<Object[]>> of(SqlNode source) {
        if (!(source instanceof SqlCall values) || values.getKind() != SqlKind.VALUES) {
            return Optional.empty();
        }
        List<Object[]> rows = new ArrayList<>(values.operandCount());
        for (SqlNode operand : values.getOperandList()) {
            if (!(operand instanceof SqlCall row) || row.getKind() != SqlKind.ROW
                || !rows.isEmpty() && rows.get(0).length != row.operandCount()) {
                return Optional.empty();
            }
            Object[] constants = new Object[row.operandCount()];
            for (int i = 0; i < constants.length; i++) {
                constants[i] = constant(row.operand(i));
                if (constants[i] == NOT_CONSTANT) {
                    return Optional.empty();
                }
            }
            rows.add(constants);
        }
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows);
    }

    /** The constant's value (null for NULL), or {@link #NOT_CONSTANT}. */
    private static Object constant(SqlNode node) {
        if (node instanceof SqlBasicCall call && call.getKind() == SqlKind.MINUS_PREFIX
            && call.operand(0) instanceof SqlNumericLiteral number) {
            return number(number, true);
        }
        if (node instanceof SqlNumericLiteral number) {
            return number(number, false);
        }
        if (node instanceof SqlBasicCall call && call.getOperator().getName().equals(UnconstrainedNumerics.FUNCTION_NAME)
            && call.operandCount() == 1) {
            // kafka-mv's parser reads a constant with decimals or an exponent in VALUES as this call: a numeric with
            // the constant's digits, as PostgreSQL reads it (1.50 is 1.50, 1e2 is 100).
            BigDecimal digits = digits(call.operand(0));
            if (digits == null) {
                return NOT_CONSTANT;
            }
            try {
                return UnconstrainedNumerics.toNumeric(digits.toString());
            } catch (InvalidInputException e) {
                throw SqlError.of(SqlErrors.stateOf(e.reason()), e.getMessage());
            }
        }
        if (node instanceof SqlBasicCall cast && cast.getKind() == SqlKind.CAST
            && cast.operand(1) instanceof SqlDataTypeSpec spec) {
            // A float, as a client's float parameter arrives (see PgParameters).
            BigDecimal digits = digits(cast.operand(0));
            String type = spec.getTypeName().getSimple().toUpperCase(java.util.Locale.ROOT);
            return digits == null ? NOT_CONSTANT : switch (type) {
                case "DOUBLE", "FLOAT" -> digits.doubleValue();
                case "REAL" -> digits.floatValue();
                default -> NOT_CONSTANT;
            };
        }
        if (node instanceof SqlCharStringLiteral text) {
            return text.getValueAs(String.class);
        }
        if (node instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.BOOLEAN
            && literal.getValue() != null) {
            // UNKNOWN is a boolean literal without a value to Calcite (a column name to PostgreSQL): the query's to judge.
            return literal.getValueAs(Boolean.class);
        }
        if (node instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.NULL) {
            return null;
        }
        return NOT_CONSTANT;
    }

    /** The digits of a numeric constant, with its sign; null for anything else. */
    private static BigDecimal digits(SqlNode node) {
        if (node instanceof SqlBasicCall call && call.getKind() == SqlKind.MINUS_PREFIX
            && call.operand(0) instanceof SqlNumericLiteral number) {
            return number.getValueAs(BigDecimal.class).negate();
        }
        return node instanceof SqlNumericLiteral number ? number.getValueAs(BigDecimal.class) : null;
    }

    /** An integer as an Integer or a Long by its size, a decimal as a BigDecimal, a float as a Double: Calcite's types. */
    private static Object number(SqlNumericLiteral literal, boolean negated) {
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (negated) {
            value = value.negate();
        }
        if (!literal.isExact()) {
            return value.doubleValue();
        }
        if (literal.getScale() != null && literal.getScale() > 0) {
            return value;
        }
        try {
            long exact = value.longValueExact();
            return exact == (int) exact ? (Object) (int) exact : (Object) exact;
        } catch (ArithmeticException e) {
            return NOT_CONSTANT;
        }
    }
}
