package io.kafkamv.compiler.functions;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.kafkamv.compiler.types.InvalidInputException;
import io.kafkamv.compiler.types.PostgresTextInput;
import io.kafkamv.connectors.format.JsonbText;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;

/**
 * PostgreSQL's jsonb operators and functions over JSONB kept as text: the parser turns
 * {@code doc -> 'key'} into {@code jsonb_field(doc, 'key')}, {@code doc ->> 'key'} into
 * {@code jsonb_text_field(doc, 'key')}, and with a number into {@code jsonb_element} and
 * {@code jsonb_text_element}; {@code ? ?| ?& @> <@ #> #>>} into the functions {@link PostgresOperators} names.
 * Anything absent, or a document that is not JSON, gives NULL, as PostgreSQL does for absent fields. JSON comes
 * out as PostgreSQL prints a jsonb ({@link JsonbText}). A path or key list ({@code doc #> '{a,0}'},
 * {@code doc ?| '{a,b}'}) is written as PostgreSQL's text[] literal.
 * Strict, as PostgreSQL's: a null argument gives null without a call.
 */
@Strict
public final class JsonbFunctions {

    /** The name the parser gives a cast to {@code jsonb}, which makes text PostgreSQL's jsonb text. */
    public static final String TO_JSONB = "kafka_mv_jsonb";

    /** The names {@code #>} and {@code #>>} are parsed into. */
    static final String PATH = "kafka_mv_jsonb_path";
    static final String TEXT_PATH = "kafka_mv_jsonb_text_path";

    private JsonbFunctions() {
    }

    static void addTo(SchemaPlus schema) {
        schema.add(TO_JSONB, ScalarFunctionImpl.create(JsonbFunctions.class, "toJsonb"));
        schema.add("jsonb_field", ScalarFunctionImpl.create(JsonbFunctions.class, "jsonbField"));
        schema.add("jsonb_text_field", ScalarFunctionImpl.create(JsonbFunctions.class, "jsonbTextField"));
        schema.add("jsonb_element", ScalarFunctionImpl.create(JsonbFunctions.class, "jsonbElement"));
        schema.add("jsonb_text_element", ScalarFunctionImpl.create(JsonbFunctions.class, "jsonbTextElement"));
        schema.add(PATH, ScalarFunctionImpl.create(JsonbFunctions.class, "jsonbPath"));
        schema.add(TEXT_PATH, ScalarFunctionImpl.create(JsonbFunctions.class, "jsonbTextPath"));
        for (String name : List.of("jsonb_extract_path", "json_extract_path")) {
            addOverloads(schema, name, "extractPath");
        }
        for (String name : List.of("jsonb_extract_path_text", "json_extract_path_text")) {
            addOverloads(schema, name, "extractPathText");
        }
        schema.add("jsonb_exists", ScalarFunctionImpl.create(JsonbFunctions.class, "exists"));
        schema.add("jsonb_exists_any", ScalarFunctionImpl.create(JsonbFunctions.class, "existsAny"));
        schema.add("jsonb_exists_all", ScalarFunctionImpl.create(JsonbFunctions.class, "existsAll"));
        schema.add("jsonb_contains", ScalarFunctionImpl.create(JsonbFunctions.class, "contains"));
        schema.add("jsonb_contained", ScalarFunctionImpl.create(JsonbFunctions.class, "contained"));
        for (String prefix : List.of("jsonb", "json")) {
            schema.add(prefix + "_typeof", ScalarFunctionImpl.create(JsonbFunctions.class, "typeOf"));
            schema.add(prefix + "_array_length", ScalarFunctionImpl.create(JsonbFunctions.class, "arrayLength"));
        }
    }

    /** The variadic {@code jsonb_extract_path(doc, VARIADIC keys)}, for one to four keys. */
    private static void addOverloads(SchemaPlus schema, String name, String method) {
        for (int keys = 1; keys <= 4; keys++) {
            Class<?>[] parameters = new Class<?>[keys + 1];
            java.util.Arrays.fill(parameters, String.class);
            try {
                schema.add(name, ScalarFunctionImpl.create(JsonbFunctions.class.getMethod(method, parameters)));
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(e);
            }
        }
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

    /** {@code doc #> '{a,0}'}: the value at the path as JSON; an empty path is the whole document. */
    public static String jsonbPath(String json, String path) {
        return json(follow(json, PostgresTextInput.textArray(path)));
    }

    /** {@code doc #>> '{a,0}'}: the value at the path as text. */
    public static String jsonbTextPath(String json, String path) {
        return text(follow(json, PostgresTextInput.textArray(path)));
    }

    public static String extractPath(String json, String k1) {
        return json(follow(json, List.of(k1)));
    }

    public static String extractPath(String json, String k1, String k2) {
        return json(follow(json, List.of(k1, k2)));
    }

    public static String extractPath(String json, String k1, String k2, String k3) {
        return json(follow(json, List.of(k1, k2, k3)));
    }

    public static String extractPath(String json, String k1, String k2, String k3, String k4) {
        return json(follow(json, List.of(k1, k2, k3, k4)));
    }

    public static String extractPathText(String json, String k1) {
        return text(follow(json, List.of(k1)));
    }

    public static String extractPathText(String json, String k1, String k2) {
        return text(follow(json, List.of(k1, k2)));
    }

    public static String extractPathText(String json, String k1, String k2, String k3) {
        return text(follow(json, List.of(k1, k2, k3)));
    }

    public static String extractPathText(String json, String k1, String k2, String k3, String k4) {
        return text(follow(json, List.of(k1, k2, k3, k4)));
    }

    /** {@code doc ? 'key'}: whether the key is a key of the object, or a string of the array, at the top. */
    public static Boolean exists(String json, String key) {
        JsonNode document = parse(json);
        return document == null || key == null ? null : has(document, key);
    }

    /** {@code doc ?| '{a,b}'}: whether any of the keys exists. */
    public static Boolean existsAny(String json, String keys) {
        JsonNode document = parse(json);
        if (document == null || keys == null) {
            return null;
        }
        return PostgresTextInput.textArray(keys).stream().anyMatch(key -> key != null && has(document, key));
    }

    /** {@code doc ?& '{a,b}'}: whether all the keys exist. */
    public static Boolean existsAll(String json, String keys) {
        JsonNode document = parse(json);
        if (document == null || keys == null) {
            return null;
        }
        return PostgresTextInput.textArray(keys).stream().allMatch(key -> key == null || has(document, key));
    }

    /** {@code a @> b}: whether the first document contains the second, by PostgreSQL's containment rules. */
    public static Boolean contains(String container, String contained) {
        JsonNode a = parse(container);
        JsonNode b = parse(contained);
        if (a == null || b == null) {
            return null;
        }
        if (a.isArray() && b.isValueNode()) {
            // A scalar on the right stands for an array of it, at the top only.
            return contains(a, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode().add(b));
        }
        return contains(a, b);
    }

    /** {@code a <@ b}: whether the first document is contained in the second. */
    public static Boolean contained(String contained, String container) {
        return contains(container, contained);
    }

    /** {@code jsonb_typeof(doc)}: object, array, string, number, boolean or null. */
    public static String typeOf(String json) {
        JsonNode document = parse(json);
        if (document == null) {
            return null;
        }
        return switch (document.getNodeType()) {
            case OBJECT -> "object";
            case ARRAY -> "array";
            case STRING -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "boolean";
            default -> "null";
        };
    }

    /** {@code jsonb_array_length(doc)}: the number of elements; anything but an array is an error, as in PostgreSQL. */
    public static Integer arrayLength(String json) {
        JsonNode document = parse(json);
        if (document == null) {
            return null;
        }
        if (!document.isArray()) {
            throw new InvalidInputException(document.isContainerNode() ? "cannot get array length of a non-array"
                : "cannot get array length of a scalar", InvalidInputException.Reason.INVALID_PARAMETER);
        }
        return document.size();
    }

    private static boolean has(JsonNode document, String key) {
        if (document.isObject()) {
            return document.has(key);
        }
        if (document.isArray()) {
            for (JsonNode element : document) {
                if (element.isTextual() && element.textValue().equals(key)) {
                    return true;
                }
            }
            return false;
        }
        return document.isTextual() && document.textValue().equals(key);
    }

    private static boolean contains(JsonNode a, JsonNode b) {
        if (a.isObject()) {
            if (!b.isObject()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> field : b.properties()) {
                JsonNode value = a.get(field.getKey());
                if (value == null || !contains(value, field.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray()) {
            if (!b.isArray()) {
                return false;
            }
            for (JsonNode wanted : b) {
                boolean found = false;
                for (JsonNode element : a) {
                    if (contains(element, wanted)) {
                        found = true;
                        break;
                    }
                }
                if (!found) {
                    return false;
                }
            }
            return true;
        }
        return b.isValueNode() && sameScalar(a, b);
    }

    private static boolean sameScalar(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.getNodeType() == b.getNodeType() && a.equals(b);
    }

    private static JsonNode follow(String json, List<String> path) {
        JsonNode node = parse(json);
        for (String step : path) {
            if (node == null || step == null) {
                return null;
            }
            if (node.isObject()) {
                node = node.get(step);
            } else if (node.isArray()) {
                node = element(node, step);
            } else {
                return null;
            }
        }
        return node;
    }

    private static JsonNode element(JsonNode array, String step) {
        try {
            int i = Integer.parseInt(step.strip());
            return array.get(i < 0 ? array.size() + i : i);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static JsonNode parse(String json) {
        return json == null ? null : JsonbText.parse(json);
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
