package io.kafkamv.jobstore;

import java.time.Instant;

/**
 * How far a background statement's current run got, and who runs it. A record of its own, apart
 * from the statement's, so that a late progress report can never undo a finished statement.
 * It doubles as the runner's heartbeat: a run nobody reports on for a while is taken over.
 */
public record StatementProgress(long id, String instance, long rowsWritten, Instant at) {
}
