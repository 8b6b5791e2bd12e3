package io.kafkamv.service.result;

import java.util.List;

/** What one statement produced: rows with a command tag, or a command tag alone. */
public sealed interface StatementResult {

    /** The command tag a PostgreSQL client expects, e.g. {@code SELECT 3} or {@code CREATE_MATERIALIZED_VIEW}. */
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
}
