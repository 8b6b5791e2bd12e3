package io.kafkamv.service.sql;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** What one client connection has set: its user, database and session variables. */
public final class Session implements AutoCloseable {

    private final String user;
    private final String database;
    private final Map<String, String> variables = new ConcurrentHashMap<>();
    private final QueryEngine.Connection queries;

    Session(String user, String database, QueryEngine.Connection queries) {
        this.user = user;
        this.database = database;
        this.queries = queries;
    }

    public String user() {
        return user;
    }

    public String database() {
        return database;
    }

    public Map<String, String> variables() {
        return variables;
    }

    QueryEngine.Connection queries() {
        return queries;
    }

    /** Stops the statement this session is running, if any; the client asked to cancel it. */
    public void cancelRunningStatement() {
        queries.cancel();
    }

    @Override
    public void close() {
        queries.close();
    }
}
