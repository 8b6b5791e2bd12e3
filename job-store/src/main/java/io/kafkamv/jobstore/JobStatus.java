package io.kafkamv.jobstore;

/** The life of a job, as persisted; the runner on every instance works towards it. */
public enum JobStatus {
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
}
