package io.kafkamv.jobstore;

/** The kinds of objects in the catalog. */
public enum ObjectKind {
    TABLE, SOURCE, MATERIALIZED_VIEW, SINK, INDEX;

    /** Objects that a job builds and keeps running; the others exist once their topic does. */
    public boolean hasJob() {
        return this == MATERIALIZED_VIEW || this == SINK || this == INDEX;
    }
}
