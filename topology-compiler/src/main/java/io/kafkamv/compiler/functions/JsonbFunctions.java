package io.kafkamv.compiler.functions;

import com.fasterxml.jackson.databind.JsonNode;
import io.kafkamv.compiler.types.InvalidInputException;
import io.kafkamv.connectors.format.JsonbText;

/**
 * PostgreSQL's {@code ->} and {@code ->>} over JSONB kept as text: the parser turns
 * {@code doc -> 'key'} into {@code jsonb_field(doc, 'key')}, {@code doc ->> 'key'} into
 * {@code jsonb_text_field(doc, 'key')}, and with a number into {@code jsonb_element} and
 * {@code jsonb_text_element}. Anything absent, or a document that is not JSON, gives NULL, as
 * PostgreSQL does for absent fields. JSON comes out as PostgreSQL prints a jsonb ({@link JsonbText}).
 */
public final class JsonbFunctions {

    /** The name the parser gives a cast to {@code jsonb}, which makes text PostgreSQL's jsonb text. */
    public static final String TO_JSONB = "kafka_mv_jsonb";

    private JsonbFunctions() {
    }

    /** {@code text::jsonb}: the JSON as jsonb prints it; text that is not JSON is an error, as in PostgreSQL. */
    public static String toJsonb(String json) {
        if (json == null) {
            return null;
        }
        try {
            return JsonbText.of(json);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("invalid input syntax for type json", InvalidInputException.Reason.SYNTAX);
        }
    }

    /** {@code doc -> 'key'}: the field as JSON text ({@code null} for JSON null). */
    public static String jsonbField(String json, String key) {
        return json(select(json, key));
    }

    /** {@code doc -> 0}: the array element as JSON text; negative indexes count from the end. */
    public static String jsonbElement(String json, int index) {
        return json(select(json, index));
    }

    /** {@code doc ->> 'key'}: the field as text: strings unquoted, JSON null as SQL NULL. */
    public static String jsonbTextField(String json, String key) {
        return text(select(json, key));
    }

    /** {@code doc ->> 0}: the array element as text. */
    public static String jsonbTextElement(String json, int index) {
        return text(select(json, index));
    }

    private static String json(JsonNode node) {
        return node == null ? null : JsonbText.of(node);
    }

    private static String text(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        return node.isTextual() ? node.textValue() : JsonbText.of(node);
    }

    private static JsonNode select(String json, Object selector) {
        if (json == null || selector == null) {
            return null;
        }
        JsonNode document = JsonbText.parse(json);
        if (document == null) {
            return null;
        }
        if (selector instanceof Number index) {
            int i = index.intValue();
            return document.isArray() ? document.get(i < 0 ? document.size() + i : i) : null;
        }
        return document.isObject() ? document.get(selector.toString()) : null;
    }
}
