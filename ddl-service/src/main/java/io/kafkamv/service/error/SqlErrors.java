package io.kafkamv.service.error;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.types.InvalidInputException;
import io.kafkamv.compiler.types.PostgresMathException;

/** The compiler's errors, and the data errors of running a statement, as SQL errors with PostgreSQL's codes. */
public final class SqlErrors {

    /** Calcite's error for a LIKE pattern it cannot read: the pattern, and where the escape is. */
    private static final Pattern LIKE_ESCAPE = Pattern.compile("Invalid escape sequence '(.*)', (\\d+)", Pattern.DOTALL);

    private SqlErrors() {
    }

    public static SqlError from(CompileException e) {
        SqlState state = switch (e.category()) {
            case SYNTAX -> SqlState.SYNTAX_ERROR;
            case UNKNOWN_OBJECT -> SqlState.UNDEFINED_TABLE;
            case UNKNOWN_COLUMN -> SqlState.UNDEFINED_COLUMN;
            case UNKNOWN_TYPE -> SqlState.UNDEFINED_OBJECT;
            case UNKNOWN_FUNCTION -> SqlState.UNDEFINED_FUNCTION;
            case CANNOT_CAST -> SqlState.CANNOT_COERCE;
            case FORBIDDEN -> SqlState.INSUFFICIENT_PRIVILEGE;
            case DUPLICATE_OBJECT -> SqlState.DUPLICATE_TABLE;
            case TYPE -> SqlState.DATATYPE_MISMATCH;
            case UNSUPPORTED -> SqlState.FEATURE_NOT_SUPPORTED;
            case INVALID_OPTION -> SqlState.INVALID_PARAMETER_VALUE;
            case INVALID_TEXT -> SqlState.INVALID_TEXT_REPRESENTATION;
            case VALUE_OUT_OF_RANGE -> SqlState.NUMERIC_VALUE_OUT_OF_RANGE;
            case INVALID_DATETIME -> SqlState.INVALID_DATETIME_FORMAT;
            case DATETIME_FIELD_OUT_OF_RANGE -> SqlState.DATETIME_FIELD_OVERFLOW;
        };
        return SqlError.at(state, e.getMessage(), e.position(), e.hint().orElse(null));
    }

    /** The SQLSTATE PostgreSQL gives text that is no value of its type, by why it is not. */
    public static SqlState stateOf(InvalidInputException.Reason reason) {
        return switch (reason) {
            case SYNTAX -> SqlState.INVALID_TEXT_REPRESENTATION;
            case DATETIME_SYNTAX -> SqlState.INVALID_DATETIME_FORMAT;
            case DATETIME_FIELD_OUT_OF_RANGE -> SqlState.DATETIME_FIELD_OVERFLOW;
            case OUT_OF_RANGE -> SqlState.NUMERIC_VALUE_OUT_OF_RANGE;
            case INVALID_PARAMETER -> SqlState.INVALID_PARAMETER_VALUE;
            case UNSUPPORTED -> SqlState.FEATURE_NOT_SUPPORTED;
            case INVALID_REGULAR_EXPRESSION -> SqlState.INVALID_REGULAR_EXPRESSION;
        };
    }

    /**
     * An exception a statement threw while it ran, as the error a client should see: bad data in an
     * expression (a string that is not a number, a division by zero) has its own code; anything else
     * is an internal error, logged by the caller, whose message does not show the stack.
     */
    public static SqlError fromRunning(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof NumberFormatException) {
                return SqlError.of(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for a number"
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
            }
            if (cause instanceof PostgresMathException math) {
                return SqlError.of(switch (math.reason()) {
                    case LOGARITHM -> SqlState.INVALID_ARGUMENT_FOR_LOGARITHM;
                    case POWER -> SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION;
                    case OUT_OF_RANGE -> SqlState.NUMERIC_VALUE_OUT_OF_RANGE;
                }, math.getMessage());
            }
            if (cause instanceof InvalidInputException invalid) {
                return SqlError.of(stateOf(invalid.reason()), invalid.getMessage());
            }
            if (cause instanceof RuntimeException && cause.getMessage() != null) {
                Matcher escape = LIKE_ESCAPE.matcher(cause.getMessage());
                if (escape.matches()) {
                    // Calcite's LIKE takes only _, % and the escape itself after the escape (PostgreSQL takes any).
                    return SqlError.of(SqlState.INVALID_ESCAPE_SEQUENCE, Integer.parseInt(escape.group(2))
                        == escape.group(1).length() - 1 ? "LIKE pattern must not end with escape character"
                        : "invalid escape sequence in LIKE pattern '" + escape.group(1) + "': only _, % and the escape "
                        + "character itself may follow the escape character");
                }
            }
            if (cause instanceof ArithmeticException) {
                String message = String.valueOf(cause.getMessage());
                if (message.contains("by zero")) {
                    return SqlError.of(SqlState.DIVISION_BY_ZERO, "division by zero");
                }
                // Java's words for an overflow in Math.addExact and its kin, in PostgreSQL's.
                return SqlError.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, switch (message) {
                    case "integer overflow" -> "integer out of range";
                    case "long overflow" -> "bigint out of range";
                    default -> "numeric value out of range: " + message;
                });
            }
        }
        return SqlError.internal("internal error: " + e.getClass().getSimpleName()
            + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
    }
}
