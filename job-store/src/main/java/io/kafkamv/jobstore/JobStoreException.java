package io.kafkamv.jobstore;

/** The job store cannot be read or written; the service cannot keep its promises without it. */
public class JobStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public JobStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
