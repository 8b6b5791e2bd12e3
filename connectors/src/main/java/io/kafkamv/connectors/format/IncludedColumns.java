package io.kafkamv.connectors.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The columns of a source that come from a record's metadata rather than its value, as RisingWave's
 * {@code INCLUDE timestamp | partition | offset | key | header 'name' [AS column]} declares them: the
 * record's timestamp (event time for windows, when the value has none), where it is, its key's bytes,
 * and a header as text. They follow the value's columns in the source's schema, and are kept in the
 * source's options as {@code include.<what> = 'column'} ({@code include.header.<name>} for a header),
 * so that a stored plan reads them without the statement.
 */
public final class IncludedColumns {

    /** The option prefix; the rest of the key says what to include, its value is the column. */
    public static final String PREFIX = "include.";

    /** What a record can give a column, with the column's type and its name when the statement names none. */
    public enum Part {
        TIMESTAMP(SqlType.TIMESTAMPTZ), PARTITION(SqlType.INTEGER), OFFSET(SqlType.BIGINT), KEY(SqlType.BYTEA),
        HEADER(SqlType.VARCHAR);

        public final SqlType type;

        Part(SqlType type) {
            this.type = type;
        }

        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static java.util.Optional<Part> of(String word) {
            for (Part part : values()) {
                if (part.word().equalsIgnoreCase(word)) {
                    return java.util.Optional.of(part);
                }
            }
            return java.util.Optional.empty();
        }
    }

    /** One included column: what it holds ({@code header} names the header of a {@link Part#HEADER}). */
    public record Included(Part part, String header, String column) {

        /** The option that stores this column with the source. */
        public String optionKey() {
            return PREFIX + part.word() + (part == Part.HEADER ? "." + header : "");
        }

        /** The column's name when the statement gives none: {@code _kafka_timestamp}, {@code _kafka_header_trace}. */
        public static String defaultColumn(Part part, String header) {
            return "_kafka_" + part.word() + (part == Part.HEADER ? "_" + header : "");
        }

        public Column asColumn() {
            return Column.of(column, part.type);
        }
    }

    private final List<Included> columns;

    private IncludedColumns(List<Included> columns) {
        this.columns = List.copyOf(columns);
    }

    /** The included columns a source's options name, in the order of {@code schemaColumns}. */
    public static IncludedColumns of(List<Column> schemaColumns, Map<String, String> options) {
        List<Included> included = new ArrayList<>();
        for (Column column : schemaColumns) {
            options.forEach((key, value) -> {
                if (key.startsWith(PREFIX) && value.equals(column.name())) {
                    String what = key.substring(PREFIX.length());
                    int dot = what.indexOf('.');
                    Part part = Part.of(dot < 0 ? what : what.substring(0, dot)).orElseThrow(
                        () -> new IllegalArgumentException("option " + key + " includes nothing a record has"));
                    included.add(new Included(part, dot < 0 ? null : what.substring(dot + 1), column.name()));
                }
            });
        }
        return new IncludedColumns(included);
    }

    public List<Included> columns() {
        return columns;
    }

    public int size() {
        return columns.size();
    }

    /** Puts the record's parts into {@code row}'s last {@link #size()} places. */
    void fill(Object[] row, int partition, long offset, long timestamp, byte[] key, Headers headers) {
        int at = row.length - columns.size();
        for (Included included : columns) {
            row[at++] = switch (included.part()) {
                case TIMESTAMP -> timestamp < 0 ? null : timestamp;
                case PARTITION -> partition;
                case OFFSET -> offset;
                case KEY -> key;
                case HEADER -> header(headers, included.header());
            };
        }
    }

    private static String header(Headers headers, String name) {
        Header header = headers == null ? null : headers.lastHeader(name);
        return header == null || header.value() == null ? null
            : SourceRecordDecoder.utf8(header.value(), () -> "header '" + name + "' is not UTF-8 text");
    }
}
