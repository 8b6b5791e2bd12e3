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
}
