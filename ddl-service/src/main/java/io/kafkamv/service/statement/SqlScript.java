package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a query string into statements at the semicolons that end them, as psql does: not inside
 * quotes, quoted names, comments or dollar-quoted strings. Each statement keeps its offset in the
 * whole string, so an error inside it can point at the right character of what the user sent.
 */
public final class SqlScript {

    /** One statement's text, without the trailing semicolon, and where it starts in the script. */
    public record Statement(String text, int offset) {
    }

    private SqlScript() {
    }

    public static List<Statement> split(String script) {
        List<Statement> statements = new ArrayList<>();
        int start = 0;
        int i = 0;
        int length = script.length();
        while (i < length) {
            char c = script.charAt(i);
            if (c == '\'' || c == '"') {
                i = skipQuoted(script, i, c);
            } else if (c == '-' && next(script, i) == '-') {
                i = skipLineComment(script, i);
            } else if (c == '/' && next(script, i) == '*') {
                i = skipBlockComment(script, i);
            } else if (c == '$') {
                i = skipDollarQuoted(script, i);
            } else if (c == ';') {
                add(statements, script, start, i);
                start = ++i;
            } else {
                i++;
            }
        }
        add(statements, script, start, length);
        return statements;
    }

    private static void add(List<Statement> statements, String script, int from, int to) {
        int begin = from;
        while (begin < to && Character.isWhitespace(script.charAt(begin))) {
            begin++;
        }
        int end = to;
        while (end > begin && Character.isWhitespace(script.charAt(end - 1))) {
            end--;
        }
        if (end > begin && !isOnlyComments(script.substring(begin, end))) {
            statements.add(new Statement(script.substring(begin, end), begin));
        }
    }

    private static boolean isOnlyComments(String text) {
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && next(text, i) == '-') {
                i = skipLineComment(text, i);
            } else if (c == '/' && next(text, i) == '*') {
                i = skipBlockComment(text, i);
            } else {
                return false;
            }
        }
        return true;
    }

    private static char next(String s, int i) {
        return i + 1 < s.length() ? s.charAt(i + 1) : '\0';
    }

    private static int skipQuoted(String s, int i, char quote) {
        int j = i + 1;
        while (j < s.length()) {
            if (s.charAt(j) == quote) {
                if (next(s, j) == quote) {
                    j += 2;
                    continue;
                }
                return j + 1;
            }
            j++;
        }
        return j;
    }

    private static int skipLineComment(String s, int i) {
        int end = s.indexOf('\n', i);
        return end < 0 ? s.length() : end + 1;
    }

    private static int skipBlockComment(String s, int i) {
        int end = s.indexOf("*/", i + 2);
        return end < 0 ? s.length() : end + 2;
    }

    /** {@code $$...$$} or {@code $tag$...$tag$}; a lone {@code $1} parameter is not a quote. */
    private static int skipDollarQuoted(String s, int i) {
        int tagEnd = i + 1;
        while (tagEnd < s.length() && (Character.isLetterOrDigit(s.charAt(tagEnd)) || s.charAt(tagEnd) == '_')) {
            if (tagEnd == i + 1 && Character.isDigit(s.charAt(tagEnd))) {
                return i + 1;
            }
            tagEnd++;
        }
        if (tagEnd >= s.length() || s.charAt(tagEnd) != '$') {
            return i + 1;
        }
        String tag = s.substring(i, tagEnd + 1);
        int close = s.indexOf(tag, tagEnd + 1);
        return close < 0 ? s.length() : close + tag.length();
    }
}
