package io.kafkamv.compiler.plan;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** Plans as JSON: how they are stored in the job store and in golden files. */
public final class PlanJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private PlanJson() {
    }

    public static JsonNode toTree(PhysicalPlan plan) {
        return MAPPER.valueToTree(plan);
    }

    public static String toJson(PhysicalPlan plan) {
        try {
            return MAPPER.writeValueAsString(plan);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static PhysicalPlan fromTree(JsonNode tree) {
        try {
            // Before binding: a newer version's plan may have fields this version does not know.
            int version = tree.path("version").asInt();
            if (version > PhysicalPlan.CURRENT_VERSION) {
                throw new IllegalArgumentException("Plan version " + version
                    + " is newer than this kafka-mv understands (" + PhysicalPlan.CURRENT_VERSION + ")");
            }
            return MAPPER.treeToValue(tree, PhysicalPlan.class);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read a stored plan", e);
        }
    }

    public static PhysicalPlan fromJson(String json) {
        try {
            return fromTree(MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read a stored plan", e);
        }
    }
}
