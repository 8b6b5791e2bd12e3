package io.kafkamv.service.statement;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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
        Map.entry("application_name", ""));

    private final String user;
    private final String database;
    private final TableWriter writer;
    private final Map<String, String> variables = new TreeMap<>(DEFAULTS);
    private final AtomicReference<QueryEngine.Cancellable> running = new AtomicReference<>();
    private final Cursors cursors = new Cursors();
    private volatile PreparedStatements preparedStatements = PreparedStatements.NONE;
    private volatile boolean streamsCopyData;
    private volatile boolean cancelRequested;

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

    /** Throws when the client cancelled; long statements call this between steps. */
    void checkCancelled() {
        if (cancelRequested) {
            cancelRequested = false;
            throw SqlError.of(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        }
    }

    void beginStatement() {
        cancelRequested = false;
    }
}
