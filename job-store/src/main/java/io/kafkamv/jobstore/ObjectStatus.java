package io.kafkamv.jobstore;

/** Where an object is in its life; only CREATED objects are visible to users. */
public enum ObjectStatus {
    CREATING, CREATED
}
