package io.kafkamv.compiler.error;

import java.util.Optional;

import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A statement kafka-mv cannot compile: invalid SQL, an unknown name, or a construct it does not
 * support. Nothing was built. Carries the place in the statement so that the edge can point at it.
 */
public final class CompileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the statement was refused; the edges map each to an error code. */
    public enum Category {
        SYNTAX, UNKNOWN_OBJECT, UNKNOWN_COLUMN, DUPLICATE_OBJECT, TYPE, UNSUPPORTED, INVALID_OPTION,
        /** A type name no type has. */
        UNKNOWN_TYPE,
        /** A function or operator with no form for the arguments' types. */
        UNKNOWN_FUNCTION,
        /** A cast between types that have none. */
        CANNOT_CAST,
        /** Something the statement may not touch, as an internal topic. */
        FORBIDDEN,
        /** A literal that is no value of its type. */
        INVALID_TEXT,
        /** A literal number too large for its type. */
        VALUE_OUT_OF_RANGE,
        /** A literal that is no date or timestamp. */
        INVALID_DATETIME,
        /** A date or timestamp literal with a field out of range, as month 13. */
        DATETIME_FIELD_OUT_OF_RANGE
    }

    private final Category category;
    private final int position;
    private final String hint;

    public CompileException(Category category, String message, int position, String hint) {
        super(message);
        this.category = category;
        this.position = position;
        this.hint = hint;
    }

    public Category category() {
        return category;
    }

    /** 1-based character offset into the statement, or 0 when the error has no single place. */
    public int position() {
        return position;
    }

    public Optional<String> hint() {
        return Optional.ofNullable(hint);
    }

    /** The 1-based character offset in {@code sql} of a Calcite position (1-based line and column), or 0 for none. */
    public static int positionOf(String sql, SqlParserPos pos) {
        if (pos == null || pos.getLineNum() <= 0) {
            return 0;
        }
        int offset = 0;
        for (int line = 1; line < pos.getLineNum(); line++) {
            int newline = sql.indexOf('\n', offset);
            if (newline < 0) {
                return 0;
            }
            offset = newline + 1;
        }
        return offset + pos.getColumnNum();
    }
}
