package io.kafkamv.jobstore;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A script of queries and DML run in the background, as persisted. Its record is written twice:
 * when it is accepted (RUNNING), and when it finishes, in the same Kafka transaction as its table
 * writes and result pages, so that a crash in between leaves nothing of it behind and the run
 * starts again.
 *
 * @param session   the session variables it runs with
 * @param owner     the instance that accepted it; it runs it, and resumes it after a restart
 * @param results   when finished, one entry per statement that ran: its command tag, columns and
 *                  row count; the rows are in pages of their own (see {@link JobStore#resultPage})
 * @param error     when failed, the SQL error's fields: code, message, and position if known
 */
public record StatementJob(
    long id,
    String statement,
    Map<String, String> session,
    StatementStatus status,
    String owner,
    List<JsonNode> results,
    Map<String, Object> error,
    long rowsWritten,
    Instant createdAt,
    Instant finishedAt) {

    public StatementJob {
        Objects.requireNonNull(statement, "statement");
        Objects.requireNonNull(status, "status");
        session = session == null ? Map.of() : Map.copyOf(session);
        results = results == null ? List.of() : List.copyOf(results);
    }

    public static StatementJob accepted(long id, String statement, Map<String, String> session, String owner) {
        return new StatementJob(id, statement, session, StatementStatus.RUNNING, owner, List.of(), null, 0,
            Instant.now(), null);
    }

    public StatementJob finished(StatementStatus newStatus, List<JsonNode> newResults, Map<String, Object> newError,
                                 long rows) {
        return new StatementJob(id, statement, session, newStatus, owner, newResults, newError, rows, createdAt,
            Instant.now());
    }
}
