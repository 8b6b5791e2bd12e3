package io.kafkamv.jobstore;

import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One named object as the catalog holds it. The job store does not interpret {@code definition}
 * (schema, topic, plan): it belongs to whoever compiled the statement.
 *
 * @param jobId the job that builds and runs this object, or 0 for objects without a job
 */
public record CatalogEntry(
    String name,
    ObjectKind kind,
    ObjectStatus status,
    String statement,
    long jobId,
    JsonNode definition,
    Instant createdAt) {

    public CatalogEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(status, "status");
    }

    public boolean visible() {
        return status == ObjectStatus.CREATED;
    }

    public CatalogEntry withStatus(ObjectStatus newStatus) {
        return new CatalogEntry(name, kind, newStatus, statement, jobId, definition, createdAt);
    }
}
