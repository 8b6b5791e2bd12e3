package io.kafkamv.compiler.functions;

/**
 * PostgreSQL's text functions that Calcite's PostgreSQL library lacks or computes otherwise, as user-defined
 * functions. They count characters (code points), as PostgreSQL does, not Java's UTF-16 units.
 */
public final class TextFunctions {

    /** The names the parser gives {@code left} and {@code right}: LEFT and RIGHT are Calcite's own too. */
    public static final String LEFT = "kafka_mv_left";
    public static final String RIGHT = "kafka_mv_right";

    private TextFunctions() {
    }

    /** {@code length(text)}: characters, not UTF-16 units, as PostgreSQL counts them. */
    public static Integer length(String text) {
        return text == null ? null : text.codePointCount(0, text.length());
    }

    /** {@code left(text, n)}: the first n characters; a negative n leaves off the last |n| (Calcite's gave ''). */
    @org.apache.calcite.linq4j.function.Strict
    public static String left(String text, int n) {
        int count = text.codePointCount(0, text.length());
        int keep = n >= 0 ? Math.min(n, count) : Math.max(count + n, 0);
        return text.substring(0, text.offsetByCodePoints(0, keep));
    }

    /** {@code right(text, n)}: the last n characters; a negative n leaves off the first |n|. */
    @org.apache.calcite.linq4j.function.Strict
    public static String right(String text, int n) {
        int count = text.codePointCount(0, text.length());
        int keep = n >= 0 ? Math.min(n, count) : Math.max(count + n, 0);
        return text.substring(text.offsetByCodePoints(0, count - keep));
    }
}
