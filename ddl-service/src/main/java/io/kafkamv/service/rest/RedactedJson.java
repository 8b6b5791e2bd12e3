package io.kafkamv.service.rest;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kafkamv.compiler.parser.Redaction;

/**
 * A stored plan as the REST API may show it: the plans keep the secrets their jobs need (a JDBC sink's password, a
 * schema registry's), which are masked here as SHOW and the logs mask them in statements.
 */
final class RedactedJson {

    private RedactedJson() {
    }

    static JsonNode of(JsonNode node) {
        if (node == null) {
            return null;
        }
        JsonNode copy = node.deepCopy();
        redact(copy);
        return copy;
    }

    private static void redact(JsonNode node) {
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                JsonNode value = field.getValue();
                if (value.isTextual()) {
                    field.setValue(TextNode.valueOf(Redaction.isSecret(field.getKey()) ? Redaction.MASK
                        : Redaction.value(value.asText())));
                } else {
                    redact(value);
                }
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                if (array.get(i).isTextual()) {
                    array.set(i, TextNode.valueOf(Redaction.value(array.get(i).asText())));
                } else {
                    redact(array.get(i));
                }
            }
        }
    }
}
