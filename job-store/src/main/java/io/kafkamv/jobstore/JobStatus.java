package io.kafkamv.jobstore;

/** The life of a job, as persisted; the runner on every instance works towards it. */
public enum JobStatus {
    /**
     * Accepted over objects still being created ({@link Job#waitsFor}): it reads nothing, and has no target offsets,
     * until they are created. An older kafka-mv cannot read this status, so it leaves such a job alone rather than
     * running it without targets.
     */
    WAITING,
    /** Backfilling towards the target offsets; the object is not visible yet. */
    CREATING,
    /** Caught up once; the object is visible and the job keeps maintaining it. */
    CREATED,
    /** A user cancelled it or dropped its object: stop it and delete everything it made. */
    CANCELLING,
    /** It cannot go on; {@link Job#failure()} says why. Its object is not visible. */
    FAILED;

    public boolean isRunning() {
        return this == CREATING || this == CREATED;
    }

    /** Whether its object is on its way: waiting for what it reads, or backfilling. */
    public boolean isBeingCreated() {
        return this == WAITING || this == CREATING;
    }
}
