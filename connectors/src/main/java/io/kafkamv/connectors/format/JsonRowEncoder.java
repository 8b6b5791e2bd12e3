package io.kafkamv.connectors.format;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kafkamv.connectors.schema.Column;

/**
 * Writes rows as JSON objects, one field per column, in the forms {@link JsonRowDecoder} reads back:
 * exact decimals, dates and times as ISO text, timestamps as {@code 2026-11-29 10:00:00.000}
 * (with {@code Z} for TIMESTAMPTZ), JSONB as nested JSON, BYTEA as base64, INTERVAL as milliseconds.
 */
public final class JsonRowEncoder implements RowEncoder {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private final List<Column> columns;

    public JsonRowEncoder(List<Column> columns) {
        this.columns = List.copyOf(columns);
    }

    public ObjectNode toJson(Object[] row) {
        ObjectNode object = NODES.objectNode();
        for (int i = 0; i < columns.size(); i++) {
            object.set(columns.get(i).name(), value(row[i], columns.get(i)));
        }
        return object;
    }

    @Override
    public byte[] encode(Object[] row) {
        return bytes(toJson(row));
    }

    public static byte[] bytes(JsonNode json) {
        try {
            return JSON.writeValueAsBytes(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode value(Object value, Column column) {
        if (value == null) {
            return NODES.nullNode();
        }
        return switch (column.type()) {
            case BOOLEAN -> NODES.booleanNode((Boolean) value);
            case SMALLINT, INTEGER, BIGINT, INTERVAL -> NODES.numberNode(((Number) value).longValue());
            case REAL, DOUBLE -> NODES.numberNode(((Number) value).doubleValue());
            // As written: 2.50 stays 2.50.
            case DECIMAL -> DecimalNode.valueOf((BigDecimal) value);
            case VARCHAR -> NODES.textNode(value.toString());
            case JSONB -> json(value.toString());
            case DATE -> NODES.textNode(LocalDate.ofEpochDay(((Number) value).longValue()).toString());
            case TIME -> NODES.textNode(LocalTime.ofNanoOfDay(((Number) value).longValue() * 1_000_000).toString());
            case TIMESTAMP -> NODES.textNode(TIMESTAMP.format(
                LocalDateTime.ofInstant(Instant.ofEpochMilli(((Number) value).longValue()), ZoneOffset.UTC)));
            case TIMESTAMPTZ -> NODES.textNode(Instant.ofEpochMilli(((Number) value).longValue()).toString());
            case BYTEA -> NODES.textNode(Base64.getEncoder().encodeToString((byte[]) value));
        };
    }

    /** JSONB text as nested JSON; text that is not JSON stays a string rather than failing the sink. */
    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return NODES.textNode(text);
        }
    }
}
