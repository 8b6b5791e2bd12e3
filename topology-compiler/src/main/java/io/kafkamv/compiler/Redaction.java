package io.kafkamv.compiler;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which options hold secrets, and statement text with their values masked: what SHOW, the REST API and
 * the logs may show of a statement.
 */
public final class Redaction {

    public static final String MASK = "***";

    /** {@code key = 'value'} where the key names a secret; a quoted value may contain doubled quotes. */
    private static final Pattern SECRET_OPTION = Pattern.compile(
        "(?i)((?:\"[^\"]*(?:password|secret|token)[^\"]*\"|'[^']*(?:password|secret|token)[^']*'|[\\w.]*(?:password|secret|token)[\\w.]*)"
            + "\\s*=\\s*)'(?:[^']|'')*'");

    private Redaction() {
    }

    public static boolean isSecret(String optionKey) {
        String key = optionKey.toLowerCase(Locale.ROOT);
        return key.contains("password") || key.contains("secret") || key.contains("token");
    }

    /** The statement as typed, with the value of every secret option replaced by {@value #MASK}. */
    public static String statement(String sql) {
        return SECRET_OPTION.matcher(sql).replaceAll("$1'" + MASK + "'");
    }
}
