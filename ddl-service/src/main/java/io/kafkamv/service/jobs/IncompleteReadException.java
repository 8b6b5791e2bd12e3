package io.kafkamv.service.jobs;

/**
 * A read of a view that could not cover every partition in its time, because some moved between instances or
 * were still restoring, or because the view is being built again: the caller gets this rather than part of the
 * rows as if they were all.
 */
public final class IncompleteReadException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String hint;

    IncompleteReadException(String message, String hint, Throwable cause) {
        super(message, cause);
        this.hint = hint;
    }

    /** What the reader can do about it. */
    public String hint() {
        return hint;
    }
}
