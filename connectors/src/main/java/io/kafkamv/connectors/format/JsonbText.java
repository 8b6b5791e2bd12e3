package io.kafkamv.connectors.format;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * JSON as PostgreSQL prints a {@code jsonb}: {@code ", "} between elements and {@code ": "} after a key, an object's
 * keys each once (the last value written wins), shortest first and then by their UTF-8 bytes, as jsonb stores them,
 * and numbers with the digits they were written with ({@code 2.50}, {@code 1e2} as {@code 100}).
 */
public final class JsonbText {

    private static final ObjectMapper JSON = new ObjectMapper()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);

    /** PostgreSQL's numeric holds up to 131072 digits before the point and 16383 after it. */
    private static final int MAX_INTEGER_DIGITS = 131_072;
    private static final int MAX_DECIMALS = 16_383;

    /** jsonb's order of keys: by length in UTF-8 bytes, then byte by byte. */
    private static final Comparator<byte[]> KEY_ORDER = Comparator.<byte[]>comparingInt(key -> key.length)
        .thenComparing(Arrays::compareUnsigned);

    private JsonbText() {
    }

    /** The JSON text as jsonb prints it; an {@link IllegalArgumentException} if it is not JSON. */
    public static String of(String json) {
        JsonNode node = parse(json);
        if (node == null) {
            throw new IllegalArgumentException("invalid input syntax for type json");
        }
        return of(node);
    }

    /** Parses JSON text with decimals kept as written, for {@link #of(JsonNode)}; null if it is not one JSON value. */
    public static JsonNode parse(String json) {
        try {
            JsonNode node = JSON.readTree(json);
            return node == null || node.isMissingNode() ? null : node;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /**
     * A number as PostgreSQL's numeric writes it, or refused as there when its exponent is beyond numeric's range:
     * {@code 1e1000000000} would otherwise be a billion digits of text.
     */
    private static String number(java.math.BigDecimal value) {
        if (value.scale() > MAX_DECIMALS || value.precision() - value.scale() > MAX_INTEGER_DIGITS) {
            throw new IllegalArgumentException("value overflows numeric format");
        }
        return value.toPlainString();
    }

    public static String of(JsonNode node) {
        StringBuilder out = new StringBuilder();
        append(out, node);
        return out.toString();
    }

    private static void append(StringBuilder out, JsonNode node) {
        if (node.isObject()) {
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(node.properties());
            fields.sort(Comparator.comparing(field -> field.getKey().getBytes(StandardCharsets.UTF_8), KEY_ORDER));
            out.append('{');
            for (int i = 0; i < fields.size(); i++) {
                out.append(i == 0 ? "" : ", ").append(new TextNode(fields.get(i).getKey())).append(": ");
                append(out, fields.get(i).getValue());
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            Iterator<JsonNode> elements = node.elements();
            for (int i = 0; elements.hasNext(); i++) {
                out.append(i == 0 ? "" : ", ");
                append(out, elements.next());
            }
            out.append(']');
        } else if (node.isBigDecimal()) {
            out.append(number(node.decimalValue()));
        } else {
            out.append(node);
        }
    }
}
