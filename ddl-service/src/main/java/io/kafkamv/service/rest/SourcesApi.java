package io.kafkamv.service.rest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.javalin.http.Context;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.connectors.format.DeadLetters;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.catalog.CatalogService;

/**
 * {@code /v1/sources}: the sources, their format, and how many of their records could not be read,
 * counted from their dead-letter topics in Kafka, so every instance says the same. Counting reads the
 * dead-letter topic: cheap while bad records are rare, which is when the count is worth reading.
 */
final class SourcesApi {

    private final JobStore store;
    private final Properties clientProperties;

    SourcesApi(JobStore store, Properties clientProperties) {
        this.store = store;
        this.clientProperties = clientProperties;
    }

    void list(Context ctx) {
        List<Map<String, Object>> sources = store.objects().stream()
            .filter(entry -> entry.kind() == ObjectKind.SOURCE)
            .sorted(java.util.Comparator.comparing(CatalogEntry::name))
            .map(this::summary)
            .toList();
        ctx.json(Map.of("sources", sources));
    }

    private Map<String, Object> summary(CatalogEntry entry) {
        Relation source = CatalogService.relation(entry);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", source.name());
        json.put("topic", source.topic());
        json.put("format", source.format());
        json.put("deadLetterTopic", source.deadLetterTopic());
        json.put("deadLetters", DeadLetters.count(clientProperties, source.deadLetterTopic()));
        json.put("statement", entry.statement());
        return json;
    }
}
