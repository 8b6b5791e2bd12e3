package io.kafkamv.service.statement;

import java.util.List;
import java.util.NoSuchElementException;

import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.Notices;
import io.kafkamv.service.result.StatementResult;

/**
 * Runs what a client sent, statement by statement, the one way every door does: pgwire's simple
 * query, {@code POST /v1/statements} and background statements. The script is split with
 * {@link SqlScript}; each statement is parsed when its turn comes, so one that fails leaves the
 * ones before it done, and the first error ends the script, as in PostgreSQL. An error points at
 * its character in the whole script, not in its statement.
 */
public final class ScriptRunner {

    private final StatementExecutor executor;

    public ScriptRunner(StatementExecutor executor) {
        this.executor = executor;
    }

    /** A run of {@code script} in {@code session}; nothing runs until {@link Run#next} is called. */
    public Run start(Session session, String script) {
        return new Run(session, SqlScript.split(script));
    }

    /**
     * Checks, without running anything, that {@code script} has statements, and that each parses and
     * may run in the background; throws the first refusal, with its position in the script.
     */
    public void checkBackgroundable(String script) {
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
    }

    /** What one statement of a script came to. */
    public sealed interface Outcome {
        SqlScript.Statement statement();
    }

    /** The statement ran. */
    public record Completed(SqlScript.Statement statement, StatementResult result) implements Outcome {
    }

    /** The statement failed, and the script ends here; the error's position is in the whole script. */
    public record Failed(SqlScript.Statement statement, SqlError error) implements Outcome {
    }

    /** One run of a script: its statements in order, each run by {@link #next}, up to the first failure. */
    public final class Run {

        private final Session session;
        private final List<SqlScript.Statement> statements;
        private int next;
        private boolean failed;

        private Run(Session session, List<SqlScript.Statement> statements) {
            this.session = session;
            this.statements = statements;
        }

        /** Whether the script holds no statement (only blanks, semicolons or comments). */
        public boolean isEmpty() {
            return statements.isEmpty();
        }

        /** Whether a statement is left to run: none is after a failure. */
        public boolean hasNext() {
            return !failed && next < statements.size();
        }

        /** Runs the next statement, its progress messages going to {@code notices}. */
        public Outcome next(Notices notices) {
            if (!hasNext()) {
                throw new NoSuchElementException(failed ? "the script ended at its first error" : "no statement left");
            }
            SqlScript.Statement statement = statements.get(next++);
            try {
                return new Completed(statement, executor.execute(session, statement.text(), notices));
            } catch (SqlError error) {
                failed = true;
                return new Failed(statement, error.shiftedBy(statement.offset()));
            }
        }
    }
}
