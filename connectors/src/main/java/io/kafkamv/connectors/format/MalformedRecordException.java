package io.kafkamv.connectors.format;

/** A record that cannot be read as a row of its source: it goes to the dead-letter topic, not into views. */
public final class MalformedRecordException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MalformedRecordException(String reason) {
        super(reason);
    }

    /**
     * What kind of problem this is, without the particulars: the reason before its first ": " (what
     * follows is the offending value), with numbers as N. "field \"ms\" does not fit type integer" is a
     * kind; the value that did not fit is not.
     */
    public String kind() {
        String reason = getMessage();
        int detail = reason.indexOf(": ");
        return (detail < 0 ? reason : reason.substring(0, detail)).replaceAll("\\d+", "N");
    }
}
