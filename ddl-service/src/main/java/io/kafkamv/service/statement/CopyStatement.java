package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;

/**
 * A {@code COPY} statement as PostgreSQL writes it: {@code COPY table [(columns)] FROM STDIN} or
 * {@code COPY {table [(columns)] | (query)} TO STDOUT}, with options in the parenthesized form
 * ({@code WITH (FORMAT csv, HEADER, DELIMITER ';', NULL '')}) or the older one ({@code WITH CSV HEADER}).
 * Calcite's grammar has no COPY, and its options are not SQL expressions, so it is read here.
 */
record CopyStatement(String table, List<String> columns, String query, boolean from, CopyFormat format) {

    private static final String NAME = "(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)";
    private static final Pattern COPY = Pattern.compile("(?is)COPY\\s+(?:" + NAME + "\\s*(?:\\(([^)]*)\\))?|\\((.+)\\))"
        + "\\s+(FROM|TO)\\s+(\\S+)(?:\\s+(.*))?");
    private static final Pattern TOKEN = Pattern.compile("'((?:[^']|'')*)'|[^\\s,()']+");

    static boolean handles(String text) {
        return text.strip().split("\\s+", 2)[0].equalsIgnoreCase("COPY");
    }

    static CopyStatement parse(String text) {
        Matcher copy = COPY.matcher(text.strip());
        if (!copy.matches()) {
            throw SqlError.at(SqlState.SYNTAX_ERROR, "syntax error in COPY", 1,
                "write COPY table [(columns)] FROM STDIN [WITH (FORMAT csv, HEADER)] or COPY {table | (query)} TO STDOUT");
        }
        boolean from = copy.group(4).equalsIgnoreCase("FROM");
        String end = copy.group(5).toUpperCase(Locale.ROOT);
        if (!end.equals(from ? "STDIN" : "STDOUT")) {
            throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED, "COPY " + (from ? "FROM" : "TO") + " " + copy.group(5)
                + " is not supported: the service reads and writes no files of its own")
                .withDetail("Use COPY ... " + (from ? "FROM STDIN" : "TO STDOUT") + ", or psql's \\copy, which sends a "
                    + "file of the client's.");
        }
        if (copy.group(3) != null && from) {
            throw SqlError.of(SqlState.SYNTAX_ERROR, "COPY (query) FROM is not possible: a query is not a table");
        }
        List<String> columns = copy.group(2) == null ? List.of()
            : Arrays.stream(copy.group(2).split(",")).map(String::strip).filter(name -> !name.isEmpty())
                .map(CopyStatement::name).toList();
        String table = copy.group(1) == null ? null : name(copy.group(1));
        return new CopyStatement(table, columns, copy.group(3), from, options(copy.group(6)));
    }

    private static CopyFormat options(String text) {
        CopyFormat.Builder format = CopyFormat.builder();
        if (text == null || text.isBlank()) {
            return format.build();
        }
        List<String> tokens = new ArrayList<>();
        Matcher token = TOKEN.matcher(text.strip());
        while (token.find()) {
            tokens.add(token.group(1) != null ? "'" + token.group(1).replace("''", "'") : token.group());
        }
        for (int i = 0; i < tokens.size(); i++) {
            String option = tokens.get(i).toUpperCase(Locale.ROOT);
            switch (option) {
                case "WITH", "AS" -> { }
                case "CSV" -> format.csv(true);
                case "TEXT" -> format.csv(false);
                case "BINARY" -> throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "COPY in binary format is not supported; use FORMAT text or csv");
                case "FORMAT" -> {
                    String name = value(tokens, ++i, option).toLowerCase(Locale.ROOT);
                    switch (name) {
                        case "csv" -> format.csv(true);
                        case "text" -> format.csv(false);
                        case "binary" -> throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED,
                            "COPY in binary format is not supported; use FORMAT text or csv");
                        default -> throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "COPY format \"" + name
                            + "\" not recognized");
                    }
                }
                case "HEADER" -> {
                    boolean header = true;
                    if (i + 1 < tokens.size() && tokens.get(i + 1).toLowerCase(Locale.ROOT)
                        .matches("true|false|on|off|1|0")) {
                        header = tokens.get(++i).toLowerCase(Locale.ROOT).matches("true|on|1");
                    }
                    format.header(header);
                }
                case "DELIMITER" -> format.delimiter(character(value(tokens, ++i, option), option));
                case "NULL" -> format.nullString(value(tokens, ++i, option));
                case "QUOTE" -> format.quote(character(value(tokens, ++i, option), option));
                case "ESCAPE" -> format.escape(character(value(tokens, ++i, option), option));
                case "ENCODING" -> {
                    String encoding = value(tokens, ++i, option).toUpperCase(Locale.ROOT).replace("-", "");
                    if (!encoding.equals("UTF8")) {
                        throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED, "COPY reads and writes UTF8 only, not " + encoding);
                    }
                }
                default -> throw SqlError.of(SqlState.SYNTAX_ERROR, "option \"" + tokens.get(i).toLowerCase(Locale.ROOT)
                    + "\" not recognized");
            }
        }
        return format.build();
    }

    /** The option's value: the next token, a quoted string or a word ({@code AS} before it is skipped). */
    private static String value(List<String> tokens, int index, String option) {
        int at = index < tokens.size() && tokens.get(index).equalsIgnoreCase("AS") ? index + 1 : index;
        if (at >= tokens.size()) {
            throw SqlError.of(SqlState.SYNTAX_ERROR, "COPY option " + option + " needs a value");
        }
        String value = tokens.get(at);
        if (at != index) {
            tokens.remove(index);
        }
        return value.startsWith("'") ? value.substring(1) : value;
    }

    private static char character(String value, String option) {
        if (value.length() != 1) {
            throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED, "COPY " + option.toLowerCase(Locale.ROOT)
                + " must be a single one-byte character");
        }
        return value.charAt(0);
    }

    private static String name(String written) {
        return written.startsWith("\"") ? written.substring(1, written.length() - 1).replace("\"\"", "\"")
            : written.toLowerCase(Locale.ROOT);
    }
}
