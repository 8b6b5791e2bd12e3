package io.kafkamv.bench;

/**
 * Where the broker runs and how a backfill is timed: the two ways users run kafka-mv, measured separately because
 * they do not cost the same.
 */
public enum BrokerSetup {

    /** The README's one command: kafka-mv with its own broker in its JVM; a background CREATE until the view answers. */
    EMBEDDED("embedded broker, background CREATE until the view answers"),
    /** A broker in its own JVM and kafka-mv with {@code --bootstrap-servers}; a foreground CREATE until it returns. */
    EXTERNAL("external broker (own JVM, --bootstrap-servers), foreground CREATE until it returns");

    private final String title;

    BrokerSetup(String title) {
        this.title = title;
    }

    public String title() {
        return title;
    }
}
