package io.kafkamv.service.statement;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.StatementResult;

/**
 * A session's cursors: {@code DECLARE c CURSOR FOR query}, {@code FETCH [FORWARD] n|ALL FROM c}, {@code MOVE} and
 * {@code CLOSE c|ALL}, as psycopg2's named cursors and SQLAlchemy's {@code stream_results} use them. A cursor
 * holds its query's rows from when it was declared, as PostgreSQL's sees the data of that moment; it scans
 * forward only (PostgreSQL's default without {@code SCROLL}), and one declared without {@code WITH HOLD} lives
 * until its transaction ends, and can only be declared inside one.
 */
final class Cursors {

    private static final String NAME = "(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)";
    private static final Pattern DECLARE = Pattern.compile("(?is)DECLARE\\s+" + NAME
        + "\\s+(?:BINARY\\s+)?(?:(?:ASENSITIVE|INSENSITIVE)\\s+)?(NO\\s+SCROLL\\s+|SCROLL\\s+)?CURSOR\\s+"
        + "(?:(WITH|WITHOUT)\\s+HOLD\\s+)?FOR\\s+(.+)");
    private static final Pattern FETCH = Pattern.compile("(?is)(FETCH|MOVE)\\s+(?:(NEXT|FORWARD\\s+ALL|FORWARD\\s+\\d+|FORWARD"
        + "|ALL|\\d+|PRIOR|FIRST|LAST|BACKWARD(?:\\s+ALL|\\s+\\d+)?|ABSOLUTE\\s+-?\\d+|RELATIVE\\s+-?\\d+|-\\d+)\\s+)?"
        + "(?:(?:FROM|IN)\\s+)?" + NAME);
    private static final Pattern CLOSE = Pattern.compile("(?is)CLOSE\\s+(ALL|" + NAME + ")");

    private record Cursor(StatementResult.Rows rows, boolean hold, int[] position) {
    }

    private final Map<String, Cursor> open = new LinkedHashMap<>();
    private boolean inTransaction;

    /** Whether the statement is one of the cursor statements, by its first word. */
    static boolean handles(String text) {
        String word = text.strip().split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
        return word.equals("DECLARE") || word.equals("FETCH") || word.equals("MOVE") || word.equals("CLOSE");
    }

    synchronized void beginTransaction() {
        inTransaction = true;
    }

    /** The end of a transaction closes the cursors declared in it without {@code WITH HOLD}. */
    synchronized void endTransaction() {
        inTransaction = false;
        open.values().removeIf(cursor -> !cursor.hold());
    }

    /** Runs a cursor statement; {@code query} runs a cursor's query and returns its rows. */
    synchronized StatementResult run(String text, Function<String, StatementResult> query) {
        String statement = text.strip();
        Matcher declare = DECLARE.matcher(statement);
        if (declare.matches()) {
            return declare(name(declare.group(1)), declare.group(2), "WITH".equalsIgnoreCase(declare.group(3)),
                declare.group(4), query);
        }
        Matcher fetch = FETCH.matcher(statement);
        if (fetch.matches()) {
            return fetch(fetch.group(1).toUpperCase(Locale.ROOT), fetch.group(2), name(fetch.group(3)));
        }
        Matcher close = CLOSE.matcher(statement);
        if (close.matches()) {
            if (close.group(1).equalsIgnoreCase("ALL")) {
                open.clear();
                return new StatementResult.Command("CLOSE CURSOR ALL");
            }
            if (open.remove(name(close.group(2))) == null) {
                throw missing(name(close.group(2)));
            }
            return new StatementResult.Command("CLOSE CURSOR");
        }
        throw SqlError.at(SqlState.SYNTAX_ERROR, "syntax error in cursor statement", 1,
            "write DECLARE name CURSOR [WITH HOLD] FOR query, FETCH [FORWARD] n|ALL FROM name, MOVE ..., or CLOSE name|ALL");
    }

    private StatementResult declare(String name, String scroll, boolean hold, String sql,
                                    Function<String, StatementResult> query) {
        if (!hold && !inTransaction) {
            throw SqlError.of(SqlState.NO_ACTIVE_SQL_TRANSACTION, "DECLARE CURSOR can only be used in transaction blocks");
        }
        if (scroll != null && !scroll.strip().toUpperCase(Locale.ROOT).startsWith("NO")) {
            throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED, "SCROLL cursors are not supported")
                .withDetail("kafka-mv's cursors scan forward only");
        }
        if (open.containsKey(name)) {
            throw SqlError.of(SqlState.DUPLICATE_CURSOR, "cursor \"" + name + "\" already exists");
        }
        if (!(query.apply(sql) instanceof StatementResult.Rows rows)) {
            throw SqlError.of(SqlState.SYNTAX_ERROR, "DECLARE CURSOR needs a query that returns rows");
        }
        open.put(name, new Cursor(rows, hold, new int[1]));
        return new StatementResult.Command("DECLARE CURSOR");
    }

    private StatementResult fetch(String verb, String direction, String name) {
        Cursor cursor = Optional.ofNullable(open.get(name)).orElseThrow(() -> missing(name));
        long wanted = count(direction == null ? "NEXT" : direction.strip().toUpperCase(Locale.ROOT).replaceAll("\\s+", " "));
        List<List<Object>> all = cursor.rows().rows();
        int from = cursor.position()[0];
        int to = from + (int) Math.min(all.size() - from, wanted);
        cursor.position()[0] = to;
        String tag = verb + " " + (to - from);
        if (verb.equals("MOVE")) {
            return new StatementResult.Command(tag);
        }
        return new StatementResult.Rows(cursor.rows().columns(), all.subList(from, to), tag);
    }

    private static long count(String direction) {
        if (direction.equals("NEXT") || direction.equals("FORWARD")) {
            return 1;
        }
        if (direction.equals("ALL") || direction.equals("FORWARD ALL")) {
            return Long.MAX_VALUE;
        }
        String number = direction.startsWith("FORWARD ") ? direction.substring("FORWARD ".length()) : direction;
        if (number.matches("\\d+")) {
            return Long.parseLong(number);
        }
        throw SqlError.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "cursor can only scan forward")
            .withDetail("kafka-mv's cursors have no SCROLL option; FETCH " + direction + " moves backward or jumps");
    }

    private static String name(String written) {
        return written.startsWith("\"") ? written.substring(1, written.length() - 1).replace("\"\"", "\"")
            : written.toLowerCase(Locale.ROOT);
    }

    private static SqlError missing(String name) {
        return SqlError.of(SqlState.INVALID_CURSOR_NAME, "cursor \"" + name + "\" does not exist");
    }
}
