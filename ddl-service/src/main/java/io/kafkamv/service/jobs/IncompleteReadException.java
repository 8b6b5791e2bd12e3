package io.kafkamv.service.jobs;

/**
 * A read of a view that could not cover every partition in its time, because some moved between instances or
 * were still restoring: the caller gets this rather than part of the rows as if they were all.
 */
public final class IncompleteReadException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    IncompleteReadException(String message, Throwable cause) {
        super(message, cause);
    }
}
