package io.kafkamv.service.statement;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.kafkamv.compiler.functions.SystemFunctions;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.query.QueryEngine;
import io.kafkamv.service.tables.TableWriter;

/** One client's session: who it is, its variables, and the statement it is running. */
public final class Session implements QueryEngine.Caller {

    /** Variables every session has, with their defaults; clients may set others too. */
    private static final Map<String, String> DEFAULTS = Map.ofEntries(
        Map.entry("background_ddl", "false"),
        Map.entry("backfill_rate_limit", "-1"),
        Map.entry("client_encoding", "UTF8"),
        Map.entry("datestyle", "ISO, MDY"),
        Map.entry("intervalstyle", "postgres"),
        Map.entry("timezone", "UTC"),
        Map.entry("server_version", SystemFunctions.SERVER_VERSION),
        Map.entry("server_version_num", SystemFunctions.SERVER_VERSION_NUM),
        Map.entry("standard_conforming_strings", "on"),
        Map.entry("integer_datetimes", "on"),
        Map.entry("transaction_isolation", "read committed"),
        Map.entry("application_name", ""),
        Map.entry("statement_timeout", "0"));

    /** One thread for every session's statement_timeout: a timer only asks the statement to stop. */
    private static final ScheduledExecutorService TIMEOUTS = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "kmv-statement-timeouts");
        thread.setDaemon(true);
        return thread;
    });

    private final String user;
    private final String database;
    private final TableWriter writer;
    private final Map<String, String> variables = new TreeMap<>(DEFAULTS);
    private final AtomicReference<QueryEngine.Cancellable> running = new AtomicReference<>();
    private final Cursors cursors = new Cursors();
    private volatile PreparedStatements preparedStatements = PreparedStatements.NONE;
    private volatile boolean streamsCopyData;
    private volatile boolean cancelRequested;
    private volatile boolean timedOut;
    /** Statements in progress: a cursor's FETCH runs its query as a statement inside the client's. */
    private int depth;
    private ScheduledFuture<?> timeout;

    Session(String user, String database, TableWriter writer) {
        this.user = user;
        this.database = database;
        this.writer = writer;
    }

    @Override
    public String user() {
        return user;
    }

    public String database() {
        return database;
    }

    Cursors cursors() {
        return cursors;
    }

    PreparedStatements preparedStatements() {
        return preparedStatements;
    }

    /** Said by the PostgreSQL endpoint, which keeps the statements its client prepares by name. */
    public void preparedStatements(PreparedStatements statements) {
        preparedStatements = statements;
    }

    /** Whether this session's door carries COPY data: the PostgreSQL protocol does, REST does not. */
    public boolean streamsCopyData() {
        return streamsCopyData;
    }

    /** Said by the PostgreSQL endpoint of its sessions. */
    public void streamCopyData() {
        streamsCopyData = true;
    }

    /** Where this session's INSERT, UPDATE and DELETE go. */
    TableWriter writer() {
        return writer;
    }

    public synchronized Optional<String> variable(String name) {
        return Optional.ofNullable(variables.get(name.toLowerCase(Locale.ROOT)));
    }

    public synchronized void set(String name, String value) {
        variables.put(name.toLowerCase(Locale.ROOT), value);
    }

    /** Back to the default, or unset for a variable without one. */
    public synchronized void reset(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        if (DEFAULTS.containsKey(key)) {
            variables.put(key, DEFAULTS.get(key));
        } else {
            variables.remove(key);
        }
    }

    public synchronized Map<String, String> variables() {
        return Map.copyOf(variables);
    }

    public boolean backgroundDdl() {
        return variable("background_ddl").map(value -> value.equalsIgnoreCase("true") || value.equals("on")
            || value.equals("1")).orElse(false);
    }

    /** Stops the statement this session is running, if any; the client asked to cancel it. */
    public void cancelRunningStatement() {
        cancelRequested = true;
        QueryEngine.Cancellable statement = running.get();
        if (statement != null) {
            statement.cancel();
        }
    }

    @Override
    public void running(QueryEngine.Cancellable statement) {
        running.set(statement);
    }

    /** Throws when the client cancelled or the statement_timeout passed; long statements call this between steps. */
    void checkCancelled() {
        if (cancelRequested) {
            cancelRequested = false;
            throw cancellation();
        }
    }

    /** The error of a statement that was stopped: by the client, or by its statement_timeout. */
    @Override
    public SqlError cancellation() {
        return SqlError.of(SqlState.QUERY_CANCELED, timedOut ? "canceling statement due to statement timeout"
            : "canceling statement due to user request");
    }

    /** A statement begins; the client's own (not one inside it) starts its statement_timeout. */
    synchronized void beginStatement() {
        if (depth++ > 0) {
            return;
        }
        cancelRequested = false;
        timedOut = false;
        long millis = variable("statement_timeout").map(Session::millisOrZero).orElse(0L);
        if (millis > 0) {
            timeout = TIMEOUTS.schedule(() -> {
                timedOut = true;
                cancelRunningStatement();
            }, millis, TimeUnit.MILLISECONDS);
        }
    }

    synchronized void endStatement() {
        if (--depth == 0 && timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }

    /** A value a client gave at startup is not checked as SET checks it: one that does not read means none. */
    private static long millisOrZero(String value) {
        try {
            return TimeSetting.millis("statement_timeout", value);
        } catch (SqlError e) {
            return 0;
        }
    }
}
