package io.kafkamv.compiler.parser;

import java.util.Locale;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.parser.impl.KafkaMvSqlParserImplConstants;
import io.kafkamv.compiler.parser.impl.ParseException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/** Parses one statement of kafka-mv's SQL into Calcite's tree, or says where and why it cannot. */
public final class SqlStatementParser {

    private SqlStatementParser() {
    }

    public static SqlNode parse(String sql) {
        try {
            return SqlParser.create(sql, SqlDialect.parserConfig()).parseStmt();
        } catch (SqlParseException e) {
            throw syntaxError(sql, e);
        }
    }

    private static CompileException syntaxError(String sql, SqlParseException e) {
        if (e.getCause() instanceof CompileException refused) {
            return refused;
        }
        // JavaCC places the end of input on the last character read: say "at end of input", after it, as PostgreSQL does.
        int position = atEndOfInput(e) ? sql.stripTrailing().length() + 1 : CompileException.positionOf(sql, e.getPos());
        String found = tokenAt(sql, position);
        String message = found.isEmpty()
            ? "syntax error at end of input"
            : "syntax error at or near \"" + found + "\"";
        // At the end of input, as PostgreSQL, no hint: what could follow is anything, and the list says little.
        return new CompileException(CompileException.Category.SYNTAX, message, position,
            isReservedName(sql, position, found, e) ? reservedWordHint(found) : found.isEmpty() ? null : expected(e));
    }

    /**
     * Whether the offending token is a reserved word given as a name (after {@code AS}, or where a name was
     * expected, as in a column list): words PostgreSQL lets users name columns with but Calcite reserves, such
     * as {@code initial} and {@code current}.
     */
    private static boolean isReservedName(String sql, int position, String token, SqlParseException e) {
        return !token.isEmpty() && Character.isLetter(token.charAt(0))
            && (sql.substring(0, position - 1).stripTrailing().toUpperCase(Locale.ROOT).matches("(?s).*\\bAS")
                || expectsName(e))
            && SqlParser.create("", SqlDialect.parserConfig()).getMetadata().isReservedWord(token.toUpperCase(Locale.ROOT));
    }

    private static boolean expectsName(SqlParseException e) {
        int[][] sequences = e.getExpectedTokenSequences();
        return sequences != null && java.util.Arrays.stream(sequences)
            .anyMatch(sequence -> sequence.length > 0 && sequence[0] == KafkaMvSqlParserImplConstants.IDENTIFIER);
    }

    private static String reservedWordHint(String word) {
        String name = word.toLowerCase(Locale.ROOT);
        return "\"" + name + "\" is a reserved word; to use it as a name, write it in double quotes: \"" + name + "\"";
    }

    private static boolean atEndOfInput(SqlParseException e) {
        return e.getCause() instanceof ParseException parse && parse.currentToken != null
            && parse.currentToken.next != null && parse.currentToken.next.kind == KafkaMvSqlParserImplConstants.EOF;
    }

    private static String tokenAt(String sql, int position) {
        if (position <= 0 || position > sql.stripTrailing().length()) {
            return "";
        }
        int start = position - 1;
        int end = start;
        while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
            end++;
        }
        return end == start ? sql.substring(start, start + 1) : sql.substring(start, end);
    }

    /** A short list of what would have been accepted, from Calcite's expected-token sets. */
    private static String expected(SqlParseException e) {
        var sequences = e.getExpectedTokenSequences();
        if (sequences == null || sequences.length == 0) {
            return null;
        }
        var tokens = new java.util.TreeSet<String>();
        for (int[] sequence : sequences) {
            if (sequence.length > 0) {
                String image = e.getTokenImages()[sequence[0]];
                if (image.startsWith("\"") && image.length() > 2) {
                    tokens.add(image.substring(1, image.length() - 1).toUpperCase(Locale.ROOT));
                }
            }
        }
        if (tokens.isEmpty() || tokens.size() > 12) {
            return null;
        }
        return "expected one of: " + String.join(", ", tokens);
    }
}
