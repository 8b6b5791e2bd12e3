package io.kafkamv.service.rest;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.javalin.http.Context;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.topology.TopologyGraph;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.jobs.JobRunner;
import io.kafkamv.service.result.Notices;
import io.kafkamv.service.result.StatementResult;
import io.kafkamv.service.statement.StatementExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /v1/objects}: every table, source, view, sink and index, and for one of them what the console
 * shows: its schema, SQL, row count, how far it trails its sources, and its topology as a graph.
 */
final class ObjectsApi {

    private static final Logger LOG = LoggerFactory.getLogger(ObjectsApi.class);

    private final JobStore store;
    private final JobRunner runner;
    private final StatementExecutor executor;

    ObjectsApi(JobStore store, JobRunner runner, StatementExecutor executor) {
        this.store = store;
        this.runner = runner;
        this.executor = executor;
    }

    void list(Context ctx) {
        ctx.json(Map.of("objects", store.objects().stream()
            .sorted(Comparator.comparing(CatalogEntry::kind).thenComparing(CatalogEntry::name))
            .map(ObjectsApi::summary)
            .toList()));
    }

    /**
     * One object in full. Counting rows reads them all (as {@code SELECT count(*)} does, from every
     * instance) and measuring lag asks Kafka, so only this call does it, when someone opens the object.
     */
    void get(Context ctx) throws InterruptedException {
        String name = ctx.pathParam("name");
        Optional<CatalogEntry> found = store.object(name);
        if (found.isEmpty()) {
            Problem.respond(ctx, Problem.of(404, "Not found", "there is no table, source, view, sink or index \"" + name + "\""));
            return;
        }
        CatalogEntry entry = found.get();
        Map<String, Object> json = summary(entry);
        if (entry.visible() && (entry.kind() == ObjectKind.TABLE || entry.kind() == ObjectKind.MATERIALIZED_VIEW)) {
            json.put("rows", count(entry));
        }
        Optional<Job> job = entry.jobId() > 0 ? store.job(entry.jobId()) : Optional.empty();
        if (job.isPresent() && job.get().plan() != null) {
            json.put("graph", TopologyGraph.of(PlanJson.fromTree(job.get().plan())));
            if (entry.visible()) {
                json.put("lag", lag(job.get()));
            }
        }
        ctx.json(json);
    }

    private Object count(CatalogEntry entry) {
        String sql = "SELECT count(*) FROM \"" + entry.name().replace("\"", "\"\"") + "\"";
        try {
            StatementResult result = executor.execute(executor.openSession("rest", "dev"), sql, Notices.NONE);
            return ((StatementResult.Rows) result).rows().get(0).get(0);
        } catch (RuntimeException error) {
            LOG.debug("Could not count the rows of {}: {}", entry.name(), error.toString());
            return null;
        }
    }

    private Long lag(Job job) throws InterruptedException {
        try {
            return runner.lag(job);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
            // A source topic gone or the cluster slow: the page shows no lag rather than no page.
            LOG.debug("Could not measure the lag of job {}: {}", job.id(), e.toString());
            return null;
        }
    }

    private static Map<String, Object> summary(CatalogEntry entry) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", entry.name());
        json.put("kind", entry.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '));
        json.put("status", entry.visible() ? "created" : "creating");
        json.put("statement", entry.statement());
        if (entry.jobId() > 0) {
            json.put("jobId", entry.jobId());
        }
        if (entry.kind() == ObjectKind.SINK || entry.kind() == ObjectKind.INDEX) {
            entry.definition().properties().forEach(field -> json.put(field.getKey(), field.getValue()));
            return json;
        }
        Relation relation = CatalogService.relation(entry);
        json.put("topic", relation.topic());
        json.put("columns", relation.schema().columns().stream()
            .map(column -> Map.of("name", column.name(), "type", column.type().postgresName(), "nullable", column.nullable()))
            .toList());
        json.put("key", relation.key().stream().map(Column::name).toList());
        if (relation.format() != null) {
            json.put("format", relation.format());
        }
        return json;
    }

}
