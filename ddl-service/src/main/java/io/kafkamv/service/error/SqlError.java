package io.kafkamv.service.error;

import java.util.Optional;

/**
 * A statement failed in a way the user can act on. Carries what the edges need to say it well:
 * pgwire turns it into an ErrorResponse (psql underlines {@link #position()}), REST into
 * problem+json.
 */
public final class SqlError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final SqlState state;
    private final int position;
    private final String hint;
    private final String detail;
    private final String context;

    private SqlError(SqlState state, String message, int position, String hint, String detail, String context,
                     Throwable cause) {
        super(message, cause);
        this.state = state;
        this.position = position;
        this.hint = hint;
        this.detail = detail;
        this.context = context;
    }

    private SqlError(SqlState state, String message, int position, String hint, Throwable cause) {
        this(state, message, position, hint, null, null, cause);
    }

    public static SqlError of(SqlState state, String message) {
        return new SqlError(state, message, 0, null, null);
    }

    public static SqlError at(SqlState state, String message, int position, String hint) {
        return new SqlError(state, message, position, hint, null);
    }

    public static SqlError internal(String message, Throwable cause) {
        return new SqlError(SqlState.INTERNAL_ERROR, message, 0, null, cause);
    }

    public SqlState state() {
        return state;
    }

    /** 1-based character offset into the statement text, or 0 when the error has no place. */
    public int position() {
        return position;
    }

    public Optional<String> hint() {
        return Optional.ofNullable(hint);
    }

    /** More about what went wrong, as PostgreSQL's DETAIL says it (a hint says what to do). */
    public Optional<String> detail() {
        return Optional.ofNullable(detail);
    }

    /** The same error with a detail. */
    public SqlError withDetail(String text) {
        return new SqlError(state, getMessage(), position, hint, text, context, getCause());
    }

    /** Where the error happened, as PostgreSQL's CONTEXT says it: {@code COPY t, line 3, column id: "x"}. */
    public Optional<String> context() {
        return Optional.ofNullable(context);
    }

    /** The same error with where it happened. */
    public SqlError withContext(String text) {
        return new SqlError(state, getMessage(), position, hint, detail, text, getCause());
    }

    /** The same error placed in a longer text that starts {@code offset} characters earlier. */
    public SqlError shiftedBy(int offset) {
        if (position == 0 || offset == 0) {
            return this;
        }
        return new SqlError(state, getMessage(), position + offset, hint, detail, context, getCause());
    }
}
