package io.kafkamv.compiler.parser;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which options hold secrets, and statement text with their values masked: what SHOW, the REST API and
 * the logs may show of a statement.
 */
public final class Redaction {

    public static final String MASK = "***";

    private static final String SECRET = "(?:password|secret|token)";
    /** An option key naming a secret: bare, double-quoted or single-quoted. */
    private static final String SECRET_KEY = "(?:\"[^\"]*" + SECRET + "[^\"]*\"|'[^']*" + SECRET + "[^']*'|[\\w.]*" + SECRET
        + "[\\w.]*)";
    /** An option value as the grammar takes it: a string (also N'...' and U&'...'), a quoted identifier, or a bare word or number. */
    private static final String VALUE = "(?:(?:[Nn]|[Uu]&)?'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|[^\\s,)'\"]+)";
    private static final Pattern SECRET_OPTION = Pattern.compile("(?i)(" + SECRET_KEY + "\\s*=\\s*)" + VALUE);
    /** A secret inside a value, as in a JDBC URL's {@code ?user=app&password=...}. */
    private static final Pattern EMBEDDED_SECRET = Pattern.compile("(?i)(" + SECRET + "=)[^&;\\s]+");

    private Redaction() {
    }

    public static boolean isSecret(String optionKey) {
        String key = optionKey.toLowerCase(Locale.ROOT);
        return key.contains("password") || key.contains("secret") || key.contains("token");
    }

    /** The statement as typed, with the value of every secret option, or secret inside a value, masked. */
    public static String statement(String sql) {
        return SECRET_OPTION.matcher(sql).replaceAll("$1'" + MASK + "'");
    }

    /** An option's value with secrets inside it masked, e.g. a URL's password parameter. */
    public static String value(String value) {
        return EMBEDDED_SECRET.matcher(value).replaceAll("$1" + MASK);
    }
}
