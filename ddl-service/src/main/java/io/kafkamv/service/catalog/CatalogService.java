package io.kafkamv.service.catalog;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kafkamv.compiler.catalog.Catalog;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.plan.SinkOutput;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.jobstore.ObjectStatus;

/**
 * The catalog as the service sees it: job store entries whose definitions are {@link Relation}s.
 * Only created objects are visible to the compiler and to queries.
 */
public final class CatalogService implements Catalog {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The last definition read for each name; a definition is never changed once stored, only replaced. */
    private static final Map<String, Read> READ = new ConcurrentHashMap<>();
    private static final int MAX_READ = 10_000;

    private record Read(JsonNode definition, ObjectKind kind, Relation relation) {
    }

    private final JobStore store;

    public CatalogService(JobStore store) {
        this.store = store;
    }

    public JobStore store() {
        return store;
    }

    @Override
    public Collection<Relation> relations() {
        return store.objects().stream()
            .filter(CatalogEntry::visible)
            .filter(entry -> entry.kind() != ObjectKind.SINK && entry.kind() != ObjectKind.INDEX)
            .map(CatalogService::relation)
            .toList();
    }

    /**
     * The catalog a new job is compiled against: created relations and the views still being created, which a job
     * can wait for ({@link io.kafkamv.jobstore.JobStatus#WAITING}). Queries never see the latter.
     */
    public Catalog includingCreating() {
        return () -> store.objects().stream()
            .filter(entry -> entry.visible() || entry.kind() == ObjectKind.MATERIALIZED_VIEW
                && store.job(entry.jobId()).filter(job -> job.status().isBeingCreated()).isPresent())
            .filter(entry -> entry.kind() != ObjectKind.SINK && entry.kind() != ObjectKind.INDEX)
            .map(CatalogService::relation)
            .toList();
    }

    public Optional<CatalogEntry> entry(String name) {
        return store.object(name);
    }

    public List<CatalogEntry> entries(ObjectKind kind) {
        return store.objects().stream().filter(entry -> entry.kind() == kind).toList();
    }

    /**
     * The relation an entry defines. Read once per stored definition: every statement asks for the relations it
     * names, and reading the JSON again each time was a seventh of an INSERT's work.
     */
    public static Relation relation(CatalogEntry entry) {
        Read read = READ.get(entry.name());
        if (read != null && read.definition() == entry.definition() && read.kind() == entry.kind()) {
            return read.relation();
        }
        Relation relation = readRelation(entry);
        if (READ.size() >= MAX_READ) {
            // Names dropped long ago would otherwise stay; the catalog's own names are read again once.
            READ.clear();
        }
        READ.put(entry.name(), new Read(entry.definition(), entry.kind(), relation));
        return relation;
    }

    private static Relation readRelation(CatalogEntry entry) {
        try {
            Relation relation = JSON.treeToValue(entry.definition(), Relation.class);
            // Entries stored before relations recorded it: a table's or source's rows are only inserted when it has
            // no primary key; a view's are taken as changing, which is always safe.
            boolean recorded = entry.definition().has("insertsOnly");
            return recorded || (entry.kind() != ObjectKind.TABLE && entry.kind() != ObjectKind.SOURCE) ? relation
                : new Relation(relation.name(), relation.schema(), relation.key(), relation.topic(), relation.format(),
                    relation.deadLetterTopic(), relation.formatOptions(), relation.schema().appendOnly());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Catalog entry " + entry.name() + " has an unreadable definition", e);
        }
    }

    /** A sink's entry: where it writes; not a relation, so nothing reads from it. */
    public static CatalogEntry sinkEntry(String name, SinkOutput output, String statement, long jobId) {
        return new CatalogEntry(name, ObjectKind.SINK, ObjectStatus.CREATING, statement, jobId,
            JSON.createObjectNode().put("sinkTopic", output.topic()).put("format", output.format())
                .put("type", output.type().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')),
            Instant.now());
    }

    /** An index's entry: the relation it is on and its columns; not a relation itself. */
    public static CatalogEntry indexEntry(String name, String on, List<String> columns, String statement, long jobId) {
        var definition = JSON.createObjectNode().put("on", on);
        columns.forEach(definition.putArray("columns")::add);
        return new CatalogEntry(name, ObjectKind.INDEX, ObjectStatus.CREATING, statement, jobId, definition,
            Instant.now());
    }

    public static CatalogEntry entry(Relation relation, ObjectKind kind, ObjectStatus status, String statement, long jobId) {
        return new CatalogEntry(relation.name(), kind, status, statement, jobId, JSON.valueToTree(relation),
            Instant.now());
    }
}
