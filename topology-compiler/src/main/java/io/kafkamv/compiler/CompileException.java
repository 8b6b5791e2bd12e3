package io.kafkamv.compiler;

import java.util.Optional;

/**
 * A statement kafka-mv cannot compile: invalid SQL, an unknown name, or a construct it does not
 * support. Nothing was built. Carries the place in the statement so that the edge can point at it.
 */
public final class CompileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the statement was refused; the edges map each to an error code. */
    public enum Category { SYNTAX, UNKNOWN_OBJECT, UNKNOWN_COLUMN, DUPLICATE_OBJECT, TYPE, UNSUPPORTED, INVALID_OPTION }

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
}
