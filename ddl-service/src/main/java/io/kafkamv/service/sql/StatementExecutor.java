package io.kafkamv.service.sql;

import java.util.Locale;

/**
 * Runs one statement of a session. The edges (pgwire, REST) split what the client sent with
 * {@link SqlScript} and call this once per statement, so both doors behave the same way.
 */
public final class StatementExecutor {

    private final QueryEngine queryEngine;

    public StatementExecutor(QueryEngine queryEngine) {
        this.queryEngine = queryEngine;
    }

    public Session openSession(String user, String database) {
        return new Session(user, database, queryEngine.connect());
    }

    public StatementResult execute(Session session, String statement) {
        String keyword = firstKeyword(statement);
        return switch (keyword) {
            case "select", "values", "with" -> session.queries().query(statement);
            default -> throw SqlError.at(SqlState.FEATURE_NOT_SUPPORTED,
                "statement " + keyword.toUpperCase(Locale.ROOT) + " is not supported",
                1, "kafka-mv answers SELECT, VALUES and WITH queries here");
        };
    }

    private static String firstKeyword(String statement) {
        int end = 0;
        while (end < statement.length() && Character.isLetter(statement.charAt(end))) {
            end++;
        }
        return statement.substring(0, end).toLowerCase(Locale.ROOT);
    }
}
