package io.kafkamv.connectors.format;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;

/**
 * Reads a JSON object into a row: each column from the field of the same name, nested objects
 * and arrays as JSONB text. A record that is not a JSON object, or whose field does not fit its
 * column's type, is malformed, with a reason that says which field and why.
 */
public final class JsonRowDecoder {

    // Decimals keep the digits they were written with: 2.50 stays 2.50, not the double 2.5.
    private static final ObjectMapper JSON = new ObjectMapper()
        .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .configure(com.fasterxml.jackson.databind.cfg.JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);

    private final List<Column> columns;
    private final Map<String, Integer> indexes = new HashMap<>();

    public JsonRowDecoder(List<Column> columns) {
        this.columns = List.copyOf(columns);
        for (int i = 0; i < this.columns.size(); i++) {
            indexes.put(this.columns.get(i).name(), i);
        }
    }

    /**
     * Reads the columns' fields as they stream by, as {@link #decode(JsonNode)} reads them from a tree:
     * only a field's own value becomes a node, other fields are skipped unread, and no tree of the whole
     * record is built (it was a fifth of a JSON source's cost per record).
     */
    public Object[] decode(byte[] bytes) {
        Object[] row = new Object[columns.size()];
        JsonNode[] fields = new JsonNode[columns.size()];
        boolean[] read = new boolean[columns.size()];
        try (JsonParser parser = JSON.createParser(bytes)) {
            JsonToken start = parser.nextToken();
            if (start == null) {
                throw new MalformedRecordException("not JSON: empty");
            }
            if (start != JsonToken.START_OBJECT) {
                throw new MalformedRecordException("not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                Integer index = indexes.get(parser.currentName());
                JsonToken token = parser.nextToken();
                if (index == null) {
                    parser.skipChildren();
                    continue;
                }
                Object value = plainValue(parser, token, columns.get(index).type());
                read[index] = value != null;
                row[index] = value;
                fields[index] = value != null ? null : parser.readValueAsTree();
            }
        } catch (IOException e) {
            throw new MalformedRecordException("not JSON: " + firstLine(e.getMessage()));
        }
        for (int i = 0; i < row.length; i++) {
            if (!read[i]) {
                row[i] = column(fields[i], columns.get(i));
            }
        }
        return row;
    }

    /**
     * The value of a field whose token fits its column as it is (an integer that fits an integer column, a
     * string for a text column, true or false for a boolean), straight from the parser: a node for each such
     * field cost a third of decoding a record. Null for every other case, which the node then decides, errors
     * included.
     */
    private static Object plainValue(JsonParser parser, JsonToken token, SqlType type) throws IOException {
        return switch (token) {
            case VALUE_NUMBER_INT -> switch (type) {
                case INTEGER -> parser.getNumberType() == JsonParser.NumberType.INT ? parser.getIntValue() : null;
                case BIGINT -> parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER ? parser.getLongValue() : null;
                default -> null;
            };
            case VALUE_STRING -> type == SqlType.VARCHAR ? parser.getText() : null;
            case VALUE_TRUE, VALUE_FALSE -> type == SqlType.BOOLEAN ? token == JsonToken.VALUE_TRUE : null;
            default -> null;
        };
    }

    /** A record's bytes as JSON, with exact decimals. */
    public static JsonNode parse(byte[] bytes) {
        try {
            JsonNode root = JSON.readTree(bytes);
            if (root == null) {
                throw new MalformedRecordException("not JSON: empty");
            }
            return root;
        } catch (IOException e) {
            throw new MalformedRecordException("not JSON: " + firstLine(e.getMessage()));
        }
    }

    public Object[] decode(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new MalformedRecordException("not a JSON object");
        }
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) {
            row[i] = column(root.get(columns.get(i).name()), columns.get(i));
        }
        return row;
    }

    private static Object column(JsonNode field, Column column) {
        if (field == null || field.isNull()) {
            if (!column.nullable()) {
                throw new MalformedRecordException("field \"" + column.name() + "\" is missing or null");
            }
            return null;
        }
        try {
            return value(field, column);
        } catch (RuntimeException e) {
            throw new MalformedRecordException("field \"" + column.name() + "\" does not fit type " + column.type().postgresName()
                + ": " + field);
        }
    }

    private static Object value(JsonNode field, Column column) {
        return switch (column.type()) {
            case BOOLEAN -> bool(field);
            case SMALLINT -> exact(field).shortValueExact();
            case INTEGER -> field.isIntegralNumber() && field.canConvertToInt() ? field.intValue() : exact(field).intValueExact();
            case BIGINT -> field.isIntegralNumber() && field.canConvertToLong() ? field.longValue() : exact(field).longValueExact();
            case REAL -> (float) number(field).doubleValue();
            case DOUBLE -> number(field).doubleValue();
            case DECIMAL -> number(field);
            case VARCHAR -> field.isTextual() ? field.textValue() : field.toString();
            case JSONB -> field.isTextual() ? field.textValue() : JsonbText.of(field);
            case DATE -> (int) LocalDate.parse(text(field)).toEpochDay();
            case TIME -> (int) (LocalTime.parse(text(field)).toNanoOfDay() / 1_000_000);
            case TIMESTAMP, TIMESTAMPTZ -> field.isNumber() ? field.longValue() : epochMillis(text(field));
            case INTERVAL -> field.longValue();
            case BYTEA -> Base64.getDecoder().decode(text(field));
        };
    }

    private static long epochMillis(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant().toEpochMilli();
        } catch (DateTimeParseException notOffset) {
            try {
                return Instant.parse(text).toEpochMilli();
            } catch (DateTimeParseException notInstant) {
                return LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC).toEpochMilli();
            }
        }
    }

    private static Boolean bool(JsonNode field) {
        if (field.isBoolean()) {
            return field.booleanValue();
        }
        // Text as PostgreSQL reads a boolean (CSV has no other way to write one).
        if (field.isTextual()) {
            switch (field.textValue().trim().toLowerCase(java.util.Locale.ROOT)) {
                case "t", "true", "yes", "on", "1":
                    return true;
                case "f", "false", "no", "off", "0":
                    return false;
                default:
                    break;
            }
        }
        throw new IllegalArgumentException("not a boolean");
    }

    private static BigDecimal exact(JsonNode field) {
        BigDecimal number = number(field);
        if (number.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException("not an integer");
        }
        return number;
    }

    private static BigDecimal number(JsonNode field) {
        if (field.isNumber()) {
            return field.decimalValue();
        }
        if (field.isTextual()) {
            return new BigDecimal(field.textValue().trim());
        }
        throw new IllegalArgumentException("not a number");
    }

    private static String text(JsonNode field) {
        if (!field.isTextual()) {
            throw new IllegalArgumentException("not text");
        }
        return field.textValue();
    }

    private static String firstLine(String message) {
        int newline = message == null ? -1 : message.indexOf('\n');
        return newline < 0 ? String.valueOf(message) : message.substring(0, newline);
    }
}
