package io.kafkamv.compiler.functions;

/** PostgreSQL's text functions that Calcite's PostgreSQL library lacks, as user-defined functions. */
public final class TextFunctions {

    private TextFunctions() {
    }

    /** {@code length(text)}: characters, not UTF-16 units, as PostgreSQL counts them. */
    public static Integer length(String text) {
        return text == null ? null : text.codePointCount(0, text.length());
    }
}
