package io.kafkamv.service.sql;

import java.util.List;

/** What one statement produced: rows with a command tag, or a command tag alone. */
public sealed interface StatementResult {

    /** The command tag a PostgreSQL client expects, e.g. {@code SELECT 3} or {@code CREATE_MATERIALIZED_VIEW}. */
    String commandTag();

    record Rows(List<ResultColumn> columns, List<List<Object>> rows) implements StatementResult {
        public Rows {
            columns = List.copyOf(columns);
            rows = List.copyOf(rows);
        }

        @Override
        public String commandTag() {
            return "SELECT " + rows.size();
        }
    }

    record Command(String commandTag) implements StatementResult {
    }
}
