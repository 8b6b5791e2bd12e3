package io.kafkamv.service.statements;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.StatementJob;
import io.kafkamv.jobstore.StatementProgress;
import io.kafkamv.jobstore.StatementStatus;
import io.kafkamv.service.sql.Session;
import io.kafkamv.service.sql.SqlError;
import io.kafkamv.service.sql.SqlScript;
import io.kafkamv.service.sql.SqlState;
import io.kafkamv.service.sql.StatementExecutor;
import io.kafkamv.service.sql.StatementResult;
import io.kafkamv.service.tables.TableWriter;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs scripts of queries and DML in the background ({@code POST /v1/statements?async=true}).
 *
 * <p>A script is persisted in the job store before it is acknowledged, and runs as one Kafka
 * transaction: its table writes, its result pages and the record that marks it finished commit
 * together or not at all. A run that dies leaves nothing behind, and the next run starts over:
 * the instance that accepted it, when it restarts, or any other instance once nobody has reported
 * on it for {@link #TAKEOVER_AFTER}. Each run opens its transaction under the statement's own
 * transactional id, which fences every earlier run of it: of two runs, only the last can commit.
 */
public final class BackgroundStatements implements AutoCloseable {

    /** Rows per stored result page. */
    public static final int PAGE_ROWS = 500;
    /** Results are kept in the job store, which every instance mirrors: bigger ones belong in a view or a table. */
    static final int MAX_RESULT_ROWS = 100_000;
    static final Duration HEARTBEAT = Duration.ofSeconds(2);
    static final Duration TAKEOVER_AFTER = Duration.ofSeconds(30);
    /** A run must commit within this long; it is also the most brokers allow by default (transaction.max.timeout.ms). */
    static final Duration TRANSACTION_TIMEOUT = Duration.ofMinutes(15);

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundStatements.class);

    private final StatementExecutor executor;
    private final JobStore store;
    private final Properties clientProperties;
    private final String instanceId;
    private final Set<Long> runningHere = ConcurrentHashMap.newKeySet();
    /** Runs that broke off (a broker away, a bug) are tried again here, not at once: no hot loop. */
    private final Map<Long, Instant> retryAfter = new ConcurrentHashMap<>();
    private final ExecutorService runs;
    private final ScheduledExecutorService watch;

    public BackgroundStatements(StatementExecutor executor, JobStore store, Properties clientProperties, String instanceId) {
        this.executor = executor;
        this.store = store;
        this.clientProperties = clientProperties;
        this.instanceId = instanceId;
        AtomicInteger threads = new AtomicInteger();
        this.runs = Executors.newCachedThreadPool(runnable -> daemon(runnable, "background-statement-" + threads.incrementAndGet()));
        this.watch = Executors.newSingleThreadScheduledExecutor(runnable -> daemon(runnable, "background-statements"));
    }

    /** Resumes this instance's unfinished statements, and from then on adopts those nobody runs. */
    public BackgroundStatements start() {
        watch.scheduleWithFixedDelay(this::adoptSafely, 0, HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /**
     * Checks every statement of the script (a typo is reported now, with its position in the script),
     * persists it, and starts it here. Returns the accepted statement.
     */
    public StatementJob submit(String script, Map<String, String> session) {
        List<SqlScript.Statement> statements = SqlScript.split(script);
        if (statements.isEmpty()) {
            throw SqlError.of(SqlState.SYNTAX_ERROR, "no statement to run");
        }
        for (SqlScript.Statement statement : statements) {
            try {
                executor.requireBackgroundable(statement.text());
            } catch (SqlError error) {
                throw error.shiftedBy(statement.offset());
            }
        }
        StatementJob accepted = StatementJob.accepted(store.allocateJobId(), script, session, instanceId);
        store.accept(accepted);
        launch(accepted);
        return accepted;
    }

    private void adoptSafely() {
        try {
            for (StatementJob statement : store.statements()) {
                if (statement.status() == StatementStatus.RUNNING && !runningHere.contains(statement.id()) && isOrphan(statement)) {
                    launch(statement);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Looking for background statements to run failed; trying again", e);
        }
    }

    /** Ours since a restart, or silent for longer than {@link #TAKEOVER_AFTER}. */
    private boolean isOrphan(StatementJob statement) {
        if (retryAfter.getOrDefault(statement.id(), Instant.MIN).isAfter(Instant.now())) {
            return false;
        }
        var progress = store.progress(statement.id());
        String runner = progress.map(StatementProgress::instance).orElse(statement.owner());
        Instant lastSign = progress.map(StatementProgress::at).orElse(statement.createdAt());
        return instanceId.equals(runner) || lastSign.plus(TAKEOVER_AFTER).isBefore(Instant.now());
    }

    private void launch(StatementJob statement) {
        if (runningHere.add(statement.id())) {
            runs.execute(() -> {
                try {
                    run(statement);
                } finally {
                    runningHere.remove(statement.id());
                }
            });
        }
    }

    private void run(StatementJob statement) {
        long id = statement.id();
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put("transaction.timeout.ms", String.valueOf(TRANSACTION_TIMEOUT.toMillis()));
        try (TableWriter writer = TableWriter.transactional(properties, "kmv-statement-" + id)) {
            // Fenced every earlier run: if one of them committed, its end is in the store by now.
            store.catchUp();
            if (store.statement(id).map(current -> current.status().isFinished()).orElse(true)) {
                return;
            }
            LOG.info("Statement {} runs on this instance", id);
            Session session = executor.openSession("rest", "dev", writer);
            statement.session().forEach(session::set);
            ScheduledFuture<?> heartbeat = watch.scheduleWithFixedDelay(() -> report(statement, writer, session), 0,
                HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
            try {
                writer.commit(runScript(statement, session, writer));
            } catch (SqlError error) {
                writer.abort();
                boolean cancelled = store.cancelled(id).isPresent();
                writer.commit(List.of(store.finishRecord(statement.finished(
                    cancelled ? StatementStatus.CANCELLED : StatementStatus.FAILED, List.of(),
                    cancelled ? null : errorJson(error), 0))));
            } finally {
                heartbeat.cancel(false);
            }
            store.catchUp();
        } catch (KafkaException e) {
            if (fenced(e)) {
                LOG.info("Statement {}: another run took it over; this one stops", id);
            } else {
                brokeOff(id, e);
            }
        } catch (RuntimeException | Error e) {
            brokeOff(id, e);
        }
    }

    private void brokeOff(long id, Throwable e) {
        retryAfter.put(id, Instant.now().plus(TAKEOVER_AFTER));
        LOG.error("Statement {}: its run broke off and left nothing behind; it runs again in {} s", id,
            TAKEOVER_AFTER.toSeconds(), e);
    }

    /** Runs each statement in order; returns the records to commit with the writes: result pages, then the end. */
    private List<ProducerRecord<byte[], byte[]>> runScript(StatementJob statement, Session session, TableWriter writer) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<JsonNode> results = new ArrayList<>();
        for (SqlScript.Statement part : SqlScript.split(statement.statement())) {
            if (store.cancelled(statement.id()).isPresent()) {
                throw SqlError.of(SqlState.QUERY_CANCELED, "canceling statement due to user request");
            }
            List<String> notices = new ArrayList<>();
            StatementResult result;
            try {
                result = executor.execute(session, part.text(), notices::add);
            } catch (SqlError error) {
                throw error.shiftedBy(part.offset());
            }
            Map<String, Object> head = ResultJson.head(part.text(), result, notices);
            if (result instanceof StatementResult.Rows rows) {
                if (rows.rows().size() > MAX_RESULT_ROWS) {
                    throw SqlError.at(SqlState.PROGRAM_LIMIT_EXCEEDED, "the result has " + rows.rows().size()
                        + " rows; a background statement keeps at most " + MAX_RESULT_ROWS, part.offset() + 1,
                        "write it into a table with INSERT ... SELECT, or create a materialized view of it");
                }
                List<List<Object>> values = ResultJson.rows(rows.rows());
                int pages = (values.size() + PAGE_ROWS - 1) / PAGE_ROWS;
                for (int page = 0; page < pages; page++) {
                    List<List<Object>> slice = values.subList(page * PAGE_ROWS, Math.min(values.size(), (page + 1) * PAGE_ROWS));
                    records.add(store.resultPageRecord(statement.id(), results.size(), page, JobStore.mapper().valueToTree(slice)));
                }
                head.put("row_count", values.size());
                head.put("pages", pages);
            }
            results.add(JobStore.mapper().valueToTree(head));
        }
        records.add(store.finishRecord(statement.finished(StatementStatus.DONE, results, null, writer.rowsWritten())));
        return records;
    }

    private void report(StatementJob statement, TableWriter writer, Session session) {
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

    private static boolean fenced(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ProducerFencedException || cause instanceof InvalidProducerEpochException) {
                return true;
            }
        }
        return false;
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public void close() {
        watch.shutdownNow();
        runs.shutdownNow();
    }
}
