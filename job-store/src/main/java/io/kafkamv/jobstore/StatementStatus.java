package io.kafkamv.jobstore;

/** The life of a statement run in the background ({@code POST /v1/statements?async=true}). */
public enum StatementStatus {
    /** Accepted; some instance runs it, or will after a restart or a takeover. */
    RUNNING,
    /** Every statement ran, and its writes and results were committed at once. */
    DONE,
    /** A statement failed; none of the writes took effect. */
    FAILED,
    /** A user cancelled it; none of the writes took effect. */
    CANCELLED;

    public boolean isFinished() {
        return this != RUNNING;
    }
}
