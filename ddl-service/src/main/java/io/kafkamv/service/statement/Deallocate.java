package io.kafkamv.service.statement;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.StatementResult;

/**
 * PostgreSQL's {@code DEALLOCATE [PREPARE] {name | ALL}}, which drops statements the client prepared: psycopg 3
 * sends {@code DEALLOCATE ALL} after a DDL statement, since a prepared statement's plan may no longer hold.
 */
final class Deallocate {

    private static final Pattern STATEMENT = Pattern.compile(
        "(?is)\\s*DEALLOCATE\\s+(?:PREPARE\\s+)?(?:(ALL)|\"((?:[^\"]|\"\")+)\"|([a-z_][a-z_0-9$]*))\\s*;?\\s*");

    private Deallocate() {
    }

    static boolean handles(String sql) {
        return STATEMENT.matcher(sql).matches();
    }

    static StatementResult run(PreparedStatements statements, String sql) {
        Matcher matcher = STATEMENT.matcher(sql);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a DEALLOCATE statement: " + sql);
        }
        if (matcher.group(1) != null) {
            statements.deallocateAll();
            return new StatementResult.Command("DEALLOCATE ALL");
        }
        String name = matcher.group(2) != null ? matcher.group(2).replace("\"\"", "\"")
            : matcher.group(3).toLowerCase(Locale.ROOT);
        if (!statements.deallocate(name)) {
            throw SqlError.of(SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement \"" + name + "\" does not exist");
        }
        return new StatementResult.Command("DEALLOCATE");
    }
}
