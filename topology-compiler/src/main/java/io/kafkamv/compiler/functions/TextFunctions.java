package io.kafkamv.compiler.functions;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import io.kafkamv.compiler.types.InvalidInputException;
import org.apache.calcite.linq4j.function.NonDeterministic;
import org.apache.calcite.linq4j.function.Strict;

/**
 * PostgreSQL's text functions that Calcite's PostgreSQL library lacks or computes otherwise, as user-defined
 * functions. They count characters (code points), as PostgreSQL does, not Java's UTF-16 units.
 */
public final class TextFunctions {

    /** The names the parser gives {@code left} and {@code right}: LEFT and RIGHT are Calcite's own too. */
    public static final String LEFT = "kafka_mv_left";
    public static final String RIGHT = "kafka_mv_right";

    /** The names the parser gives ltrim, rtrim and string_to_array: Calcite has its own, which differ. */
    public static final String LTRIM = "kafka_mv_ltrim";
    public static final String RTRIM = "kafka_mv_rtrim";
    public static final String STRING_TO_ARRAY = "kafka_mv_string_to_array";

    /** The name the parser gives {@code substring(text FROM pattern)}, a regular expression's match. */
    public static final String SUBSTRING_MATCH = "kafka_mv_substring_match";

    private TextFunctions() {
    }

    /** {@code length(text)}: characters, not UTF-16 units, as PostgreSQL counts them. */
    public static Integer length(String text) {
        return text == null ? null : text.codePointCount(0, text.length());
    }

    /** {@code left(text, n)}: the first n characters; a negative n leaves off the last |n| (Calcite's gave ''). */
    @Strict
    public static String left(String text, int n) {
        int count = text.codePointCount(0, text.length());
        int keep = n >= 0 ? Math.min(n, count) : Math.max(count + n, 0);
        return text.substring(0, text.offsetByCodePoints(0, keep));
    }

    /** {@code right(text, n)}: the last n characters; a negative n leaves off the first |n|. */
    @Strict
    public static String right(String text, int n) {
        int count = text.codePointCount(0, text.length());
        int keep = n >= 0 ? Math.min(n, count) : Math.max(count + n, 0);
        return text.substring(text.offsetByCodePoints(0, count - keep));
    }

    /** {@code reverse(text)}, by characters. */
    @Strict
    public static String reverse(String text) {
        return new StringBuilder(text).reverse().toString();
    }

    /** {@code btrim(text)}, what PostgreSQL calls trim: spaces off both ends (not tabs or newlines). */
    @Strict
    public static String btrimSpaces(String text) {
        return btrim(text, " ");
    }

    /** {@code btrim(text, characters)}: any of the characters off both ends. */
    @Strict
    public static String btrim(String text, String characters) {
        return rtrim(ltrim(text, characters), characters);
    }

    @Strict
    public static String ltrimSpaces(String text) {
        return ltrim(text, " ");
    }

    /** {@code ltrim(text, characters)}: any of the characters off the start (Calcite's takes no characters). */
    @Strict
    public static String ltrim(String text, String characters) {
        int start = 0;
        while (start < text.length() && characters.indexOf(text.codePointAt(start)) >= 0) {
            start += Character.charCount(text.codePointAt(start));
        }
        return text.substring(start);
    }

    @Strict
    public static String rtrimSpaces(String text) {
        return rtrim(text, " ");
    }

    /** {@code rtrim(text, characters)}: any of the characters off the end. */
    @Strict
    public static String rtrim(String text, String characters) {
        int end = text.length();
        while (end > 0 && characters.indexOf(text.codePointBefore(end)) >= 0) {
            end -= Character.charCount(text.codePointBefore(end));
        }
        return text.substring(0, end);
    }

    /** {@code quote_literal(text)}: the text as a string literal, quotes doubled; with a backslash, an E'' literal. */
    @Strict
    public static String quoteLiteral(String text) {
        String quoted = "'" + text.replace("'", "''").replace("\\", "\\\\") + "'";
        return text.indexOf('\\') >= 0 ? "E" + quoted : quoted;
    }

    /** {@code quote_nullable(text)}: as {@code quote_literal}, and {@code NULL} for null. */
    public static String quoteNullable(String text) {
        return text == null ? "NULL" : quoteLiteral(text);
    }

    /** {@code gen_random_uuid()}: a version 4 UUID, as text. A new one for each row, so never folded into a constant. */
    @NonDeterministic
    public static String genRandomUuid() {
        return UUID.randomUUID().toString();
    }

    /**
     * {@code string_to_array(text, delimiter)}: the parts between delimiters, empty ones kept ('a,' is {a,""}, where
     * Calcite's dropped the last); '' is an empty array, and an empty delimiter gives the whole text.
     */
    public static List<String> stringToArray(String text, String delimiter) {
        if (text.isEmpty()) {
            return List.of();
        }
        if (delimiter.isEmpty()) {
            return List.of(text);
        }
        List<String> parts = new ArrayList<>();
        int from = 0;
        for (int at = text.indexOf(delimiter); at >= 0; at = text.indexOf(delimiter, from)) {
            parts.add(text.substring(from, at));
            from = at + delimiter.length();
        }
        parts.add(text.substring(from));
        return parts;
    }

    /**
     * {@code substring(text FROM pattern)}: the part of the text the regular expression's first parenthesized
     * group matches, or the whole match when it has no group; null when it does not match.
     */
    @Strict
    public static String substringMatch(String text, String pattern) {
        Matcher matcher = compile(pattern, 0).matcher(text);
        if (!matcher.find()) {
            return null;
        }
        return matcher.groupCount() == 0 ? matcher.group() : matcher.group(1);
    }

    /** {@code regexp_match(text, pattern)}: the first match's groups (or the match, without groups), null if none. */
    public static List<String> regexpMatch(String text, String pattern) {
        return regexpMatch(text, pattern, "");
    }

    /** {@code regexp_match(text, pattern, flags)}, with PostgreSQL's flag {@code i} (case-insensitive); not {@code g}. */
    public static List<String> regexpMatch(String text, String pattern, String flags) {
        if (flags.contains("g")) {
            throw new InvalidInputException("regexp_match() does not support the \"global\" option",
                InvalidInputException.Reason.INVALID_PARAMETER);
        }
        Matcher matcher = compile(pattern, flags.contains("i") ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0)
            .matcher(text);
        if (!matcher.find()) {
            return null;
        }
        if (matcher.groupCount() == 0) {
            return List.of(matcher.group());
        }
        List<String> groups = new ArrayList<>(matcher.groupCount());
        for (int i = 1; i <= matcher.groupCount(); i++) {
            groups.add(matcher.group(i));
        }
        return groups;
    }

    private static Pattern compile(String pattern, int flags) {
        try {
            return Pattern.compile(pattern, flags);
        } catch (PatternSyntaxException e) {
            throw new InvalidInputException("invalid regular expression: " + e.getDescription(),
                InvalidInputException.Reason.INVALID_REGULAR_EXPRESSION);
        }
    }
}
