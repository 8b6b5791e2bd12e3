package io.kafkamv.connectors.format;

/** A record that cannot be read as a row of its source: it goes to the dead-letter topic, not into views. */
public final class MalformedRecordException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MalformedRecordException(String reason) {
        super(reason);
    }
}
