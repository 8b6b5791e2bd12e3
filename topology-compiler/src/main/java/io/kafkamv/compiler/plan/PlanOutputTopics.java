package io.kafkamv.compiler.plan;

import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The topics a stored plan writes, read from the fields every plan version has ({@code outputTopic},
 * {@code sink.topic}, {@code sink.jdbc}), so that an instance can clean up after and wait for a job whose
 * plan it could not build: one made by a newer version of kafka-mv, or none at all.
 */
public record PlanOutputTopics(Optional<String> owned, Optional<String> databaseSink) {

    public static PlanOutputTopics of(JsonNode plan) {
        if (plan == null || plan.isNull() || plan.isMissingNode()) {
            return new PlanOutputTopics(Optional.empty(), Optional.empty());
        }
        JsonNode sink = plan.path("sink");
        boolean writesToDatabase = sink.has("jdbc");
        // A view's changelog and a JDBC sink's topic are its own; a Kafka sink's topic belongs to its readers.
        Optional<String> owned = !plan.has("sink") || writesToDatabase
            ? Optional.ofNullable(plan.path("outputTopic").asText(null)) : Optional.empty();
        Optional<String> databaseSink = writesToDatabase ? Optional.of(sink.path("topic").asText()) : Optional.empty();
        return new PlanOutputTopics(owned, databaseSink);
    }
}
