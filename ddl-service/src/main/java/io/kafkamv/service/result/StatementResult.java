package io.kafkamv.service.result;

import java.util.List;

/** What one statement produced: rows with a command tag, or a command tag alone. */
public sealed interface StatementResult {

    /** The command tag a PostgreSQL client expects, e.g. {@code SELECT 3} or {@code CREATE MATERIALIZED VIEW}. */
    String commandTag();

    /** Rows; {@code tag} is null for a query, whose tag is {@code SELECT n}. */
    record Rows(List<ResultColumn> columns, List<List<Object>> rows, String tag) implements StatementResult {
        public Rows {
            columns = List.copyOf(columns);
            rows = List.copyOf(rows);
        }

        public Rows(List<ResultColumn> columns, List<List<Object>> rows) {
            this(columns, rows, null);
        }

        @Override
        public String commandTag() {
            return tag != null ? tag : "SELECT " + rows.size();
        }
    }

    record Command(String commandTag) implements StatementResult {
    }

    /**
     * {@code COPY ... TO STDOUT}: the rows, which the PostgreSQL endpoint sends as CopyData, each value in
     * PostgreSQL's text form and each row one line of {@code format}.
     */
    record CopyOut(Rows rows, LineFormat format) implements StatementResult {
        @Override
        public String commandTag() {
            return "COPY " + rows.rows().size();
        }
    }

    /** A row of values, each already in PostgreSQL's text form (null for NULL), as one line of COPY data. */
    interface LineFormat {
        String line(List<String> fields);

        /** Whether the column names come first, as a line of their own. */
        boolean header();
    }

    /**
     * {@code COPY ... FROM STDIN}: the PostgreSQL endpoint hands the client's CopyData to {@code sink} and
     * completes with the count it returns. Only a PostgreSQL client can send the data: other doors refuse it.
     */
    record CopyIn(int columnCount, CopySink sink) implements StatementResult {
        @Override
        public String commandTag() {
            throw new IllegalStateException("COPY FROM STDIN completes when its data has been read");
        }
    }

    /** Where the data of a {@code COPY ... FROM STDIN} goes, in the chunks the client sent. */
    interface CopySink {
        /** Reads a chunk; rows that are complete are written. */
        void accept(byte[] chunk);

        /** Writes what is left, waits until every row is written, and returns how many there were. */
        long finish();
    }
}
