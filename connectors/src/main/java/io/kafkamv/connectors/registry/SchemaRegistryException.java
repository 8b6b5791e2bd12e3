package io.kafkamv.connectors.registry;

/** The registry cannot be reached or refuses a request; the message says which and why. */
public final class SchemaRegistryException extends RuntimeException {

    private final int status;

    public SchemaRegistryException(String message, int status, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The HTTP status the registry answered with, or 0 when it could not be reached. */
    public int status() {
        return status;
    }

    /**
     * True when asking again later may succeed: the registry could not be reached, timed out, was
     * overloaded or had an error of its own. A refusal (an unknown id, an incompatible schema, bad
     * credentials) stays a refusal.
     */
    public boolean isTransient() {
        return status == 0 || status == 408 || status == 429 || status >= 500;
    }
}
