package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.List;

import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.StatementResult;

/**
 * COPY's text and CSV formats, as PostgreSQL reads and writes them. Text: fields split by a tab, {@code \N} for
 * null, backslash escapes ({@code \t}, {@code \n}, {@code \\}, octal and hex bytes), a line {@code \.} ends the data.
 * CSV: fields split by a comma, quoted with {@code "} when they need it (a quote inside doubled), an unquoted
 * empty field is null and a quoted one the empty string; an optional header line.
 */
record CopyFormat(boolean csv, boolean header, char delimiter, String nullString, char quote, char escape)
    implements StatementResult.LineFormat {

    static Builder builder() {
        return new Builder();
    }

    /** One row as a line, with its end of line. */
    @Override
    public String line(List<String> fields) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                line.append(delimiter);
            }
            String field = fields.get(i);
            if (field == null) {
                line.append(nullString);
            } else if (csv) {
                boolean quoted = field.isEmpty() && nullString.isEmpty() || field.equals(nullString)
                    || field.indexOf(delimiter) >= 0 || field.indexOf(quote) >= 0 || field.indexOf('\n') >= 0
                    || field.indexOf('\r') >= 0;
                if (quoted) {
                    line.append(quote);
                    for (char c : field.toCharArray()) {
                        if (c == quote || c == escape) {
                            line.append(escape);
                        }
                        line.append(c);
                    }
                    line.append(quote);
                } else {
                    line.append(field);
                }
            } else {
                for (char c : field.toCharArray()) {
                    switch (c) {
                        case '\\' -> line.append("\\\\");
                        case '\n' -> line.append("\\n");
                        case '\r' -> line.append("\\r");
                        case '\t' -> line.append("\\t");
                        default -> {
                            if (c == delimiter) {
                                line.append('\\');
                            }
                            line.append(c);
                        }
                    }
                }
            }
        }
        return line.append('\n').toString();
    }

    /** Reads rows from text that arrives in pieces. */
    Decoder decoder() {
        return new Decoder();
    }

    /** A row read, the line it starts on (1 is the first line of the data, as PostgreSQL counts) and its text. */
    record Row(List<String> fields, long line, String text) {
    }

    final class Decoder {
        private final StringBuilder pending = new StringBuilder();
        private long line;
        private boolean ended;

        /** The rows complete in what has arrived so far. */
        List<Row> feed(String text) {
            pending.append(text);
            return rows(false);
        }

        /** The rows left at the end of the data. */
        List<Row> finish() {
            return rows(true);
        }

        private List<Row> rows(boolean atEnd) {
            List<Row> rows = new ArrayList<>();
            int start = 0;
            while (!ended && start < pending.length()) {
                int end = csv ? csvRecordEnd(start) : pending.indexOf("\n", start);
                if (end < 0) {
                    if (!atEnd) {
                        break;
                    }
                    end = pending.length();
                }
                String record = pending.substring(start, end);
                start = Math.min(end + 1, pending.length());
                if (record.endsWith("\r")) {
                    record = record.substring(0, record.length() - 1);
                }
                line++;
                if (record.equals("\\.")) {
                    ended = true;
                } else if (!(header && line == 1)) {
                    rows.add(new Row(csv ? csvFields(record) : textFields(record), line, record));
                }
                line += newlinesIn(record);
            }
            pending.delete(0, start);
            return rows;
        }

        /** Where the CSV record that starts at {@code start} ends (a newline outside quotes), or -1 if not yet. */
        private int csvRecordEnd(int start) {
            boolean quoted = false;
            for (int i = start; i < pending.length(); i++) {
                char c = pending.charAt(i);
                if (quoted && c == escape && escape != quote && i + 1 < pending.length()) {
                    i++;
                } else if (c == quote) {
                    quoted = !quoted;
                } else if (c == '\n' && !quoted) {
                    return i;
                }
            }
            return -1;
        }

        private long newlinesIn(String record) {
            return csv ? record.chars().filter(c -> c == '\n').count() : 0;
        }

        private List<String> csvFields(String record) {
            List<String> fields = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            boolean quoted = false;
            boolean wasQuoted = false;
            for (int i = 0; i < record.length(); i++) {
                char c = record.charAt(i);
                if (quoted) {
                    if (c == escape && i + 1 < record.length() && (record.charAt(i + 1) == quote
                        || record.charAt(i + 1) == escape)) {
                        field.append(record.charAt(++i));
                    } else if (c == quote) {
                        quoted = false;
                    } else {
                        field.append(c);
                    }
                } else if (c == quote) {
                    quoted = true;
                    wasQuoted = true;
                } else if (c == delimiter) {
                    fields.add(csvValue(field, wasQuoted));
                    field.setLength(0);
                    wasQuoted = false;
                } else {
                    field.append(c);
                }
            }
            if (quoted) {
                throw SqlError.of(SqlState.BAD_COPY_FILE_FORMAT, "unterminated CSV quoted field")
                    .withContext("COPY, line " + line);
            }
            fields.add(csvValue(field, wasQuoted));
            return fields;
        }

        private String csvValue(StringBuilder field, boolean wasQuoted) {
            String value = field.toString();
            return !wasQuoted && value.equals(nullString) ? null : value;
        }

        private List<String> textFields(String record) {
            List<String> fields = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            boolean escaped = false;
            for (int i = 0; i < record.length(); i++) {
                char c = record.charAt(i);
                if (c == '\\' && i + 1 < record.length()) {
                    char next = record.charAt(++i);
                    escaped = true;
                    switch (next) {
                        case 'b' -> field.append('\b');
                        case 'f' -> field.append('\f');
                        case 'n' -> field.append('\n');
                        case 'r' -> field.append('\r');
                        case 't' -> field.append('\t');
                        case 'v' -> field.append('\u000b');
                        case 'N' -> {
                            field.append("\\N");
                            escaped = false;
                        }
                        case 'x' -> {
                            int end = i + 1;
                            while (end < record.length() && end < i + 3 && Character.digit(record.charAt(end), 16) >= 0) {
                                end++;
                            }
                            if (end == i + 1) {
                                field.append('x');
                            } else {
                                field.append((char) Integer.parseInt(record.substring(i + 1, end), 16));
                                i = end - 1;
                            }
                        }
                        default -> {
                            if (next >= '0' && next <= '7') {
                                int end = i;
                                while (end < record.length() && end < i + 3 && record.charAt(end) >= '0' && record.charAt(end) <= '7') {
                                    end++;
                                }
                                field.append((char) Integer.parseInt(record.substring(i, end), 8));
                                i = end - 1;
                            } else {
                                field.append(next);
                            }
                        }
                    }
                } else if (c == delimiter) {
                    fields.add(textValue(field, escaped));
                    field.setLength(0);
                    escaped = false;
                } else {
                    field.append(c);
                }
            }
            fields.add(textValue(field, escaped));
            return fields;
        }

        private String textValue(StringBuilder field, boolean escaped) {
            String value = field.toString();
            return !escaped && value.equals(nullString) ? null : value;
        }
    }

    static final class Builder {
        private boolean csv;
        private boolean header;
        private Character delimiter;
        private String nullString;
        private Character quote;
        private Character escape;

        Builder csv(boolean value) {
            csv = value;
            return this;
        }

        Builder header(boolean value) {
            header = value;
            return this;
        }

        Builder delimiter(char value) {
            delimiter = value;
            return this;
        }

        Builder nullString(String value) {
            nullString = value;
            return this;
        }

        Builder quote(char value) {
            quote = value;
            return this;
        }

        Builder escape(char value) {
            escape = value;
            return this;
        }

        CopyFormat build() {
            if (header && !csv) {
                throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED, "cannot specify HEADER in TEXT mode");
            }
            if ((quote != null || escape != null) && !csv) {
                throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED, "COPY quote and escape are available only in CSV mode");
            }
            char quoteChar = quote == null ? '"' : quote;
            return new CopyFormat(csv, header, delimiter == null ? (csv ? ',' : '\t') : delimiter,
                nullString == null ? (csv ? "" : "\\N") : nullString, quoteChar, escape == null ? quoteChar : escape);
        }
    }
}
