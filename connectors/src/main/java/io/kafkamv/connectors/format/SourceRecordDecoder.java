package io.kafkamv.connectors.format;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.kafkamv.connectors.registry.SchemaRegistryClient;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.kafka.common.header.Headers;

/**
 * Reads a record of a topic others write as a change to a source's rows, in one of two formats:
 * <ul>
 * <li>{@code json}: with a primary key, a record upserts the row with its key, and a tombstone (no
 * value) deletes the row whose key the record's key holds, as a JSON object of the key columns: what
 * upsert sinks, ours included, write. Without one, each record is a new row keyed by where it is,
 * and tombstones mean nothing.
 * <li>{@code avro}: like {@code json}, with values (and keys of tombstones) in Confluent's wire format,
 * read with the schema each record names, from the Schema Registry.
 * <li>{@code csv}: like {@code json}, each value one CSV line with the columns in order.
 * <li>{@code string} and {@code bytes}: the whole value is the source's one column, text (UTF-8) or
 * {@code bytea}; each record is a new row, as in a topic of log lines or opaque payloads.
 * <li>{@code debezium-json}: Debezium's change envelope ({@code before}, {@code after}, {@code op},
 * with or without the {@code schema}/{@code payload} wrapper), so a CDC topic feeds a source with
 * updates and deletes. It needs a primary key; the tombstones after deletes mean nothing.
 * </ul>
 */
public final class SourceRecordDecoder {

    /** The formats this decoder reads. */
    public static final java.util.Set<String> FORMATS = java.util.Set.of("json", "debezium-json", "avro", "csv",
        "string", "bytes");

    /**
     * The option naming how a record's key is written, which tombstones are read by: {@code json} (an
     * object of the key columns; the default), {@code avro} (the default of an Avro source), or
     * {@code string} (the one key column's value as text, as most producers key their records).
     */
    public static final String KEY_FORMAT = "key.format";
    /**
     * The option promising that each record's key is its row's primary key, written in {@link #KEY_FORMAT}, so that all
     * the records of a row are in one partition: {@code 'true'} lets a view keep the source's rows where they are read,
     * without sending them through a repartition topic keyed by their primary key first (one commit interval, and a
     * copy of every record, less). A record whose key is missing, unreadable or not its row's key is a dead letter.
     */
    public static final String KEY_IS_PRIMARY_KEY = "key.is_primary_key";
    /**
     * Key types whose equal values are not equal as read ({@code 1.0} and {@code 1.00}, {@code -0.0} and {@code 0.0}):
     * a record whose key and value write one value differently would fail the check that its key is its row's.
     */
    private static final java.util.Set<SqlType> INEXACT_KEYS = java.util.EnumSet.of(SqlType.REAL, SqlType.DOUBLE,
        SqlType.DECIMAL);
    /** Not numerics: "7" and "7.0" would be keys of different rows. */
    private static final java.util.Set<SqlType> TEXT_KEYS = java.util.EnumSet.of(SqlType.VARCHAR, SqlType.SMALLINT,
        SqlType.INTEGER, SqlType.BIGINT);

    /** The option naming a CSV source's field separator (one character; a comma by default). */
    public static final String CSV_DELIMITER = "csv.delimiter";

    /** The option naming an Avro source's Schema Registry, and those of its basic auth. */
    public static final String SCHEMA_REGISTRY = SchemaRegistryClient.URL_OPTION;
    public static final String SCHEMA_REGISTRY_USERNAME = SchemaRegistryClient.USERNAME_OPTION;
    public static final String SCHEMA_REGISTRY_PASSWORD = SchemaRegistryClient.PASSWORD_OPTION;

    /**
     * The option bounding a record's value, in bytes: a larger one is dead-lettered, not read, so one
     * huge record cannot exhaust a view's memory. Above the broker's default message size (1 MiB).
     */
    public static final String MAX_RECORD_BYTES = "max_record_bytes";
    public static final int DEFAULT_MAX_RECORD_BYTES = 8 * 1024 * 1024;

    /** Reads the bytes of a record's key or value into values of some columns. */
    @FunctionalInterface
    private interface RowReader {
        Object[] read(byte[] bytes);
    }

    /** A change: the row's key and its new value, or null when the row is deleted. */
    public record Change(Object[] key, Object[] row) {
    }

    private final JsonRowDecoder values;
    private final RowReader rows;
    private final RowReader keys;
    private final int[] keyColumns;
    private final List<Column> key;
    private final boolean debezium;
    private final int maxRecordBytes;
    private final boolean keyIsPrimaryKey;
    /** Whether record keys are plain text ({@code key.format = 'string'}). */
    private final boolean stringKeys;
    private final IncludedColumns included;
    private final int width;

    /** @param options what the format needs besides the bytes: for Avro, {@link #SCHEMA_REGISTRY} */
    public SourceRecordDecoder(RowSchema schema, String format, Map<String, String> options) {
        if (!FORMATS.contains(format)) {
            throw new IllegalArgumentException("source format " + format + " is not supported");
        }
        if (format.equals("debezium-json") && schema.keyColumns().isEmpty()) {
            throw new IllegalArgumentException("a debezium-json source needs a primary key");
        }
        this.included = IncludedColumns.of(schema.columns(), options);
        this.width = schema.columns().size();
        RowSchema value = valueSchema(schema, included);
        unfitForWholeValue(value, format).ifPresent(reason -> {
            throw new IllegalArgumentException(reason);
        });
        this.debezium = format.equals("debezium-json");
        this.values = new JsonRowDecoder(value.columns());
        List<Column> key = schema.keyColumns().stream().map(name -> schema.column(name).orElseThrow())
            .map(c -> c.withNullable(false)).toList();
        this.key = key;
        this.maxRecordBytes = maxRecordBytes(options);
        this.keyIsPrimaryKey = keyIsPrimaryKey(options);
        if (keyIsPrimaryKey) {
            if (key.isEmpty()) {
                throw new IllegalArgumentException(KEY_IS_PRIMARY_KEY + " needs a primary key: a source without one "
                    + "keeps every record as a new row, whatever its key");
            }
            key.stream().filter(column -> INEXACT_KEYS.contains(column.type())).findFirst().ifPresent(column -> {
                throw new IllegalArgumentException(KEY_IS_PRIMARY_KEY + " needs a primary key of exact values: column \""
                    + column.name() + "\" is " + column.type().postgresName() + ", whose equal values (1.0 and 1.00, "
                    + "0.0 and -0.0) can be written differently in a record's key and value");
            });
        }
        if (format.equals("avro")) {
            this.rows = new AvroRowDecoder(value.columns(), SchemaRegistryClient.fromOptions(options))::decode;
        } else if (format.equals("string")) {
            this.rows = bytes -> new Object[] {utf8(bytes)};
        } else if (format.equals("bytes")) {
            this.rows = bytes -> new Object[] {bytes};
        } else if (format.equals("csv")) {
            String delimiter = options.getOrDefault(CSV_DELIMITER, ",");
            if (delimiter.length() != 1) {
                throw new IllegalArgumentException(CSV_DELIMITER + " must be one character, not '" + delimiter + "'");
            }
            this.rows = new CsvRowDecoder(value.columns(), delimiter.charAt(0))::decode;
        } else {
            this.rows = values::decode;
        }
        String keyFormat = options.getOrDefault(KEY_FORMAT, format.equals("avro") ? "avro" : "json")
            .toLowerCase(java.util.Locale.ROOT);
        this.stringKeys = keyFormat.equals("string");
        this.keys = debezium && keyFormat.equals("json") ? debeziumKeyReader(key) : keyReader(keyFormat, key, options);
        // By name: the key's columns are declared NOT NULL, the schema's may not be.
        List<String> names = schema.columns().stream().map(Column::name).toList();
        this.keyColumns = key.stream().mapToInt(column -> names.indexOf(column.name())).toArray();
    }

    private static RowReader keyReader(String keyFormat, List<Column> key, Map<String, String> options) {
        switch (keyFormat) {
            case "json":
                return new JsonRowDecoder(key)::decode;
            case "avro":
                return new AvroRowDecoder(key, SchemaRegistryClient.fromOptions(options))::decode;
            case "string":
                if (key.size() > 1) {
                    throw new IllegalArgumentException("key.format 'string' reads a key of one column, not " + key.size());
                }
                if (!key.isEmpty() && !TEXT_KEYS.contains(key.get(0).type())) {
                    throw new IllegalArgumentException("key.format 'string' reads text and integer keys, not "
                        + key.get(0).type().postgresName());
                }
                return key.isEmpty() ? bytes -> new Object[0] : bytes -> new Object[] {fromText(utf8(bytes), key.get(0))};
            default:
                throw new IllegalArgumentException(KEY_FORMAT + " '" + keyFormat + "' is not supported; use 'json', "
                    + "'avro' or 'string'");
        }
    }

    /** Debezium's JSON keys, like its values, with or without the {@code schema}/{@code payload} wrapper. */
    private static RowReader debeziumKeyReader(List<Column> key) {
        JsonRowDecoder keys = new JsonRowDecoder(key);
        return bytes -> {
            JsonNode root = JsonRowDecoder.parse(bytes);
            return keys.decode(root.has("payload") && root.get("payload").isObject() ? root.get("payload") : root);
        };
    }

    /** A key column's value from its text, for keys written as plain strings. */
    private static Object fromText(String text, Column column) {
        try {
            return switch (column.type()) {
                case VARCHAR -> text;
                case SMALLINT -> Short.parseShort(text.trim());
                case INTEGER -> Integer.parseInt(text.trim());
                default -> Long.parseLong(text.trim());
            };
        } catch (NumberFormatException e) {
            throw new MalformedRecordException("key \"" + text + "\" does not fit type " + column.type().postgresName());
        }
    }

    /** The columns a value holds: the schema's, but for the included ones after them. */
    private static RowSchema valueSchema(RowSchema schema, IncludedColumns included) {
        List<Column> columns = schema.columns();
        List<Column> value = columns.subList(0, columns.size() - included.size());
        for (int i = 0; i < included.size(); i++) {
            String name = included.columns().get(i).column();
            if (!columns.get(value.size() + i).name().equals(name)) {
                throw new IllegalArgumentException("included column " + name + " must follow the value's columns");
            }
            if (schema.keyColumns().contains(name)) {
                throw new IllegalArgumentException("included column " + name + " cannot be part of the primary key");
            }
        }
        return new RowSchema(value, schema.keyColumns());
    }

    /** {@link #decode(int, long, long, Headers, byte[], byte[])} of a record without a timestamp or headers. */
    public Change decode(int partition, long offset, byte[] key, byte[] value) {
        return decode(partition, offset, -1, null, key, value);
    }

    /**
     * The change a record makes, or null when it makes none.
     *
     * @param timestamp the record's, or negative when it has none
     * @throws MalformedRecordException with the reason, when the record cannot be read
     */
    public Change decode(int partition, long offset, long timestamp, Headers headers, byte[] key, byte[] value) {
        Change change = decodeValue(partition, offset, key, value);
        if (keyIsPrimaryKey && change != null && value != null) {
            // A tombstone's row key is its record key already.
            checkRecordKey(key, change.key());
        }
        if (change == null || change.row() == null || included.size() == 0) {
            return change;
        }
        Object[] row = Arrays.copyOf(change.row(), width);
        included.fill(row, partition, offset, timestamp, key, headers);
        return new Change(change.key(), row);
    }

    private Change decodeValue(int partition, long offset, byte[] key, byte[] value) {
        if (value != null && value.length > maxRecordBytes) {
            throw new MalformedRecordException("record of " + value.length + " bytes is larger than "
                + MAX_RECORD_BYTES + " (" + maxRecordBytes + ")");
        }
        if (debezium) {
            return value == null ? null : debeziumChange(JsonRowDecoder.parse(value));
        }
        if (value == null) {
            if (keyColumns.length == 0) {
                return null;
            }
            if (key == null) {
                throw new MalformedRecordException("a tombstone without a key");
            }
            return new Change(keys.read(key), null);
        }
        Object[] row = rows.read(value);
        if (keyColumns.length == 0) {
            return new Change(new Object[] {partition, offset}, row);
        }
        return new Change(keyOf(row), row);
    }

    private Change debeziumChange(JsonNode envelope) {
        JsonNode change = envelope.has("payload") && envelope.get("payload").isObject() ? envelope.get("payload") : envelope;
        String op = change.path("op").asText("");
        switch (op) {
            case "c", "r", "u" -> {
                Object[] row = values.decode(change.get("after"));
                return new Change(keyOf(row), row);
            }
            case "d" -> {
                return new Change(keyOf(values.decode(change.get("before"))), null);
            }
            default -> throw new MalformedRecordException(op.isEmpty() ? "not a Debezium change: no \"op\""
                : "Debezium op \"" + op + "\" is not c, r, u or d");
        }
    }

    /** Holds the {@link #KEY_IS_PRIMARY_KEY} promise for a record that changes the row with key {@code rowKey}. */
    private void checkRecordKey(byte[] key, Object[] rowKey) {
        if (key == null) {
            throw new MalformedRecordException("a record without a key, though " + KEY_IS_PRIMARY_KEY
                + " says each record's key is its row's primary key");
        }
        Object[] recordKey;
        try {
            recordKey = keys.read(key);
        } catch (MalformedRecordException e) {
            throw new MalformedRecordException("record key, " + e.getMessage());
        }
        if (stringKeys) {
            // " 7", "+7" and "07" read as 7 but hash to other partitions than "7": the row could be in two.
            String text = new String(key, java.nio.charset.StandardCharsets.UTF_8);
            if (!text.equals(String.valueOf(recordKey[0]))) {
                throw new MalformedRecordException("record key, \"" + text + "\" is not written as " + KEY_IS_PRIMARY_KEY
                    + " needs: \"" + recordKey[0] + "\"");
            }
        }
        if (!Arrays.deepEquals(recordKey, rowKey)) {
            throw new MalformedRecordException("the record's key is not its row's primary key (" + KEY_IS_PRIMARY_KEY
                + "): " + Arrays.deepToString(recordKey) + " is not " + Arrays.deepToString(rowKey));
        }
    }

    /** The row's primary key; a row without one cannot be kept, so it is malformed rather than a crash downstream. */
    private Object[] keyOf(Object[] row) {
        Object[] rowKey = new Object[keyColumns.length];
        for (int i = 0; i < keyColumns.length; i++) {
            rowKey[i] = row[keyColumns[i]];
            if (rowKey[i] == null) {
                throw new MalformedRecordException("primary key column \"" + key.get(i).name() + "\" is null");
            }
        }
        return rowKey;
    }

    /**
     * Why a source of these columns cannot be read in a format that makes the whole value one column
     * ({@code string}, {@code bytes}); empty when it can, or for other formats.
     */
    public static java.util.Optional<String> unfitForWholeValue(RowSchema schema, String format) {
        SqlType type = format.equals("string") ? SqlType.VARCHAR : format.equals("bytes") ? SqlType.BYTEA : null;
        if (type == null || schema.columns().size() == 1 && schema.columns().get(0).type() == type
            && schema.keyColumns().isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("a " + format + " source has exactly one column, of type " + type.postgresName()
            + ", and no primary key: each record's whole value is that column");
    }

    private static String utf8(byte[] bytes) {
        return utf8(bytes, () -> "not UTF-8 text");
    }

    /** The bytes as UTF-8 text; bytes that are not are a malformed record, for {@code reason}. */
    static String utf8(byte[] bytes, java.util.function.Supplier<String> reason) {
        try {
            return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new MalformedRecordException(reason.get());
        }
    }

    /** The {@value #KEY_IS_PRIMARY_KEY} option: {@code 'true'} or {@code 'false'} (the default). */
    public static boolean keyIsPrimaryKey(Map<String, String> options) {
        String value = options.getOrDefault(KEY_IS_PRIMARY_KEY, "false").trim().toLowerCase(java.util.Locale.ROOT);
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(KEY_IS_PRIMARY_KEY + " must be 'true' or 'false', not '"
                + options.get(KEY_IS_PRIMARY_KEY) + "'");
        };
    }

    /** The {@value #MAX_RECORD_BYTES} option: a positive number of bytes. */
    public static int maxRecordBytes(Map<String, String> options) {
        String value = options.get(MAX_RECORD_BYTES);
        if (value == null) {
            return DEFAULT_MAX_RECORD_BYTES;
        }
        try {
            int bytes = Integer.parseInt(value.trim());
            if (bytes > 0) {
                return bytes;
            }
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw new IllegalArgumentException(MAX_RECORD_BYTES + " must be a positive number of bytes, not '" + value + "'");
    }
}
