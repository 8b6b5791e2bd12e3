package io.kafkamv.service.background;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.StatementJob;
import io.kafkamv.jobstore.StatementProgress;
import io.kafkamv.jobstore.StatementStatus;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.StatementResult;
import io.kafkamv.service.statement.ScriptRunner;
import io.kafkamv.service.statement.Session;
import io.kafkamv.service.statement.SqlScript;
import io.kafkamv.service.statement.StatementExecutor;
import io.kafkamv.service.tables.TableWriter;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a background statement, as one Kafka transaction under the statement's own
 * transactional id: opening it fences every earlier run and aborts what that left open, so of
 * two runs only the last can commit. The run ends the statement (DONE, FAILED or CANCELLED, in
 * the transaction) or breaks off and leaves nothing behind, for a later run.
 */
final class StatementRun {

    /** How a run ended. */
    enum Outcome { ENDED, TAKEN_OVER, BROKE_OFF }

    /** Rows per stored result page, at most; a page also stays under {@link #PAGE_BYTES}. */
    static final int PAGE_ROWS = 500;
    /** Well under Kafka's default 1 MB record limit. */
    static final int PAGE_BYTES = 256 * 1024;
    /** Results are kept in the job store, which every instance mirrors: bigger ones belong in a view or a table. */
    static final int MAX_RESULT_ROWS = 100_000;
    static final Duration HEARTBEAT = Duration.ofSeconds(2);
    /** The most brokers allow a transaction by default (transaction.max.timeout.ms). */
    static final Duration TRANSACTION_TIMEOUT = Duration.ofMinutes(15);
    /** A run stops itself in time to end the statement as FAILED before its transaction times out. */
    static final Duration RUN_LIMIT = TRANSACTION_TIMEOUT.minusMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(StatementRun.class);
    private static final ObjectMapper JSON = JobStore.mapper();

    private final StatementJob statement;
    private final StatementExecutor executor;
    private final ScriptRunner scripts;
    private final JobStore store;
    private final Properties clientProperties;
    private final String instanceId;
    private final ScheduledExecutorService timers;
    private final BooleanSupplier closing;
    private Throwable cause;

    StatementRun(StatementJob statement, StatementExecutor executor, ScriptRunner scripts, JobStore store,
                 Properties clientProperties, String instanceId, ScheduledExecutorService timers, BooleanSupplier closing) {
        this.statement = statement;
        this.executor = executor;
        this.scripts = scripts;
        this.store = store;
        this.clientProperties = clientProperties;
        this.instanceId = instanceId;
        this.timers = timers;
        this.closing = closing;
    }

    /** Why the run broke off, if it did. */
    Throwable cause() {
        return cause;
    }

    Outcome run() {
        try (TableWriter writer = openWriter()) {
            if (ended()) {
                return Outcome.ENDED;
            }
            LOG.info("Statement {} runs on this instance", statement.id());
            Session session = executor.openSession("rest", "dev", writer);
            statement.session().forEach(session::set);
            AtomicBoolean overtime = new AtomicBoolean();
            ScheduledFuture<?> heartbeat = timers.scheduleWithFixedDelay(() -> report(writer, session), 0,
                HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
            ScheduledFuture<?> deadline = timers.schedule(() -> {
                overtime.set(true);
                session.cancelRunningStatement();
            }, RUN_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            try {
                writer.commit(runScript(session, writer, overtime));
                LOG.info("Statement {} RUNNING -> DONE ({} rows written)", statement.id(), writer.rowsWritten());
                return Outcome.ENDED;
            } catch (SqlError error) {
                return endAfter(error, writer, overtime.get());
            } finally {
                heartbeat.cancel(false);
                deadline.cancel(false);
            }
        } catch (KafkaException e) {
            return brokeOffOrTakenOver(e);
        } catch (RuntimeException e) {
            cause = e;
            return Outcome.BROKE_OFF;
        }
    }

    /** Ends the statement as FAILED without running it: it broke off too often. */
    Outcome giveUp(String reason) {
        try (TableWriter writer = openWriter()) {
            if (!ended()) {
                writer.commit(List.of(store.finishRecord(statement.finished(StatementStatus.FAILED, List.of(),
                    Map.of("code", SqlState.INTERNAL_ERROR.code(), "message", reason), 0))));
                LOG.warn("Statement {} RUNNING -> FAILED: {}", statement.id(), reason);
            }
            return Outcome.ENDED;
        } catch (KafkaException e) {
            return brokeOffOrTakenOver(e);
        } catch (RuntimeException e) {
            // E.g. the job store cannot be read up to date: try again later, as after a run that broke off.
            cause = e;
            return Outcome.BROKE_OFF;
        }
    }

    private TableWriter openWriter() {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put("transaction.timeout.ms", String.valueOf(TRANSACTION_TIMEOUT.toMillis()));
        return TableWriter.transactional(properties, "kmv-statement-" + statement.id());
    }

    /** Whether an earlier run ended it: having fenced them all, their commits are in the store by now. */
    private boolean ended() {
        store.catchUp();
        return store.statement(statement.id()).map(current -> current.status().isFinished()).orElse(true);
    }

    private Outcome endAfter(SqlError error, TableWriter writer, boolean overtime) {
        if (closing.getAsBoolean() || causedByKafka(error)) {
            // Not the statement's fault: a later run does it again.
            cause = error;
            abortQuietly(writer);
            return Outcome.BROKE_OFF;
        }
        writer.abort();
        boolean cancelled = store.cancelled(statement.id()).isPresent();
        Map<String, Object> failure = cancelled ? null : overtime
            ? Map.of("code", SqlState.PROGRAM_LIMIT_EXCEEDED.code(), "message", "the statement ran longer than "
                + RUN_LIMIT.toMinutes() + " minutes, as long as a background statement's transaction may stay open",
                "hint", "split it into smaller statements, for example by ranges of keys")
            : errorJson(error);
        StatementStatus status = cancelled ? StatementStatus.CANCELLED : StatementStatus.FAILED;
        writer.commit(List.of(store.finishRecord(statement.finished(status, List.of(), failure, 0))));
        LOG.info("Statement {} RUNNING -> {}{}", statement.id(), status, failure == null ? "" : ": " + failure.get("message"));
        return Outcome.ENDED;
    }

    private Outcome brokeOffOrTakenOver(KafkaException e) {
        if (fenced(e)) {
            store.catchUp();
            boolean other = store.progress(statement.id()).map(StatementProgress::instance)
                .filter(instance -> !instance.equals(instanceId)).isPresent();
            if (other) {
                LOG.info("Statement {}: another instance took it over; this run stops", statement.id());
                return Outcome.TAKEN_OVER;
            }
        }
        cause = e;
        return Outcome.BROKE_OFF;
    }

    /** Runs each statement in order; returns the records to commit with the writes: result pages, then the end. */
    private List<ProducerRecord<byte[], byte[]>> runScript(Session session, TableWriter writer, AtomicBoolean overtime) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<JsonNode> results = new ArrayList<>();
        ScriptRunner.Run run = scripts.start(session, statement.statement());
        while (run.hasNext()) {
            stopIfCancelled(overtime);
            List<String> notices = new ArrayList<>();
            ScriptRunner.Outcome outcome = run.next(notices::add);
            if (outcome instanceof ScriptRunner.Failed failed) {
                throw failed.error();
            }
            SqlScript.Statement part = outcome.statement();
            StatementResult result = ((ScriptRunner.Completed) outcome).result();
            Map<String, Object> head = ResultJson.head(part.text(), result, notices);
            if (result instanceof StatementResult.Rows rows) {
                if (rows.rows().size() > MAX_RESULT_ROWS) {
                    throw SqlError.at(SqlState.PROGRAM_LIMIT_EXCEEDED, "the result has " + rows.rows().size()
                        + " rows; a background statement keeps at most " + MAX_RESULT_ROWS, part.offset() + 1,
                        "write it into a table with INSERT ... SELECT, or create a materialized view of it");
                }
                int pages = pages(ResultJson.rows(rows.rows()), results.size(), part, records);
                head.put("row_count", rows.rows().size());
                head.put("pages", pages);
            }
            results.add(JSON.valueToTree(head));
        }
        // A cancel that came while the last statement ran, once it had produced every row, has no statement after it
        // to stop at: it stops the run here, before the commit, rather than let the run end DONE after it.
        stopIfCancelled(overtime);
        records.add(store.finishRecord(statement.finished(StatementStatus.DONE, results, null, writer.rowsWritten())));
        return records;
    }

    private void stopIfCancelled(AtomicBoolean overtime) {
        if (store.cancelled(statement.id()).isPresent() || overtime.get()) {
            throw SqlError.of(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        }
    }

    /** Cuts rows into pages of at most {@link #PAGE_ROWS} rows and {@link #PAGE_BYTES} bytes; returns how many. */
    private int pages(List<List<Object>> rows, int index, SqlScript.Statement part, List<ProducerRecord<byte[], byte[]>> records) {
        int page = 0;
        List<List<Object>> current = new ArrayList<>();
        long bytes = 0;
        for (List<Object> row : rows) {
            long size = size(row);
            if (size > PAGE_BYTES) {
                throw SqlError.at(SqlState.PROGRAM_LIMIT_EXCEEDED, "a result row takes " + size
                    + " bytes; a background statement keeps rows of at most " + PAGE_BYTES, part.offset() + 1,
                    "select fewer or shorter columns, or write the rows into a table with INSERT ... SELECT");
            }
            if (current.size() == PAGE_ROWS || bytes + size > PAGE_BYTES) {
                records.add(store.resultPageRecord(statement.id(), index, page++, JSON.valueToTree(current)));
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(row);
            bytes += size;
        }
        if (!current.isEmpty()) {
            records.add(store.resultPageRecord(statement.id(), index, page++, JSON.valueToTree(current)));
        }
        return page;
    }

    private static long size(List<Object> row) {
        try {
            return JSON.writeValueAsBytes(row).length;
        } catch (JsonProcessingException e) {
            throw SqlError.internal("cannot write a result row as JSON", e);
        }
    }

    private void report(TableWriter writer, Session session) {
        try {
            if (store.cancelled(statement.id()).isPresent()) {
                session.cancelRunningStatement();
            }
            store.put(new StatementProgress(statement.id(), instanceId, writer.rowsWritten(), Instant.now()));
        } catch (RuntimeException e) {
            LOG.warn("Statement {}: cannot report progress: {}", statement.id(), e.toString());
        }
    }

    private static Map<String, Object> errorJson(SqlError error) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("code", error.state().code());
        json.put("message", error.getMessage());
        if (error.position() > 0) {
            json.put("position", error.position());
        }
        error.hint().ifPresent(hint -> json.put("hint", hint));
        return json;
    }

    private static void abortQuietly(TableWriter writer) {
        try {
            writer.abort();
        } catch (KafkaException e) {
            // The next run's writer aborts it anyway.
        }
    }

    private static boolean causedByKafka(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof KafkaException) {
                return true;
            }
        }
        return false;
    }

    private static boolean fenced(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ProducerFencedException || cause instanceof InvalidProducerEpochException) {
                return true;
            }
        }
        return false;
    }
}
