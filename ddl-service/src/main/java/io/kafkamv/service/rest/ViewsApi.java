package io.kafkamv.service.rest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.javalin.http.Context;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.topology.TopologyFactory;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.background.JsonValues;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.jobs.ViewReads;
import io.kafkamv.service.statement.JdbcValues;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** {@code /v1/views}: created materialized views, their schema and plan, and their rows by key. */
final class ViewsApi {

    private static final int DEFAULT_LIMIT = 100;

    private final JobStore store;
    private final ViewReads reads;

    ViewsApi(JobStore store, ViewReads reads) {
        this.store = store;
        this.reads = reads;
    }

    void list(Context ctx) {
        ctx.json(Map.of("views", views().stream().map(entry -> summary(entry)).toList()));
    }

    void get(Context ctx) {
        view(ctx).ifPresent(entry -> {
            Map<String, Object> json = summary(entry);
            store.job(entry.jobId()).ifPresent(job -> {
                json.put("plan", job.plan());
                json.put("topology", TopologyFactory.build(PlanJson.fromTree(job.plan())).describe().toString());
            });
            ctx.json(json);
        });
    }

    /** Rows of the view: the one with {@code key} (one value per key column), or up to {@code limit}. */
    void rows(Context ctx) {
        Optional<CatalogEntry> view = view(ctx);
        if (view.isEmpty()) {
            return;
        }
        Relation relation = CatalogService.relation(view.get());
        Optional<ReadOnlyKeyValueStore<Object[], Object[]>> rows = reads.viewStore(view.get().jobId());
        if (rows.isEmpty()) {
            Problem.respond(ctx, Problem.of(503, "Service unavailable", "the view's rows are not ready on this instance yet"));
            return;
        }
        List<String> key = ctx.queryParams("key");
        List<List<Object>> result = new ArrayList<>();
        if (!key.isEmpty()) {
            if (key.size() != relation.key().size()) {
                Problem.respond(ctx, Problem.of(400, "Bad request",
                    "the view is keyed by " + relation.key().stream().map(Column::name).toList()
                        + ": give one key parameter for each"));
                return;
            }
            Object[] keyRow = new Object[key.size()];
            try {
                for (int i = 0; i < keyRow.length; i++) {
                    keyRow[i] = JdbcValues.toColumn(key.get(i), relation.key().get(i));
                }
            } catch (SqlError error) {
                Problem.respond(ctx, Problem.of(error, null));
                return;
            }
            Object[] row = rows.get().get(keyRow);
            if (row != null) {
                result.add(Arrays.asList(row));
            }
        } else {
            int limit = ctx.queryParam("limit") == null ? DEFAULT_LIMIT : Integer.parseInt(ctx.queryParam("limit"));
            try (KeyValueIterator<Object[], Object[]> iterator = rows.get().all()) {
                while (iterator.hasNext() && result.size() < limit) {
                    KeyValue<Object[], Object[]> next = iterator.next();
                    result.add(Arrays.asList(next.value));
                }
            }
        }
        ctx.json(Map.of("columns", relation.schema().columns().stream().map(Column::name).toList(),
            "rows", result.stream().map(JsonValues::row).toList()));
    }

    private List<CatalogEntry> views() {
        return store.objects().stream()
            .filter(entry -> entry.kind() == ObjectKind.MATERIALIZED_VIEW && entry.visible())
            .sorted(Comparator.comparing(CatalogEntry::name))
            .toList();
    }

    private Optional<CatalogEntry> view(Context ctx) {
        String name = ctx.pathParam("name");
        Optional<CatalogEntry> view = store.object(name)
            .filter(entry -> entry.kind() == ObjectKind.MATERIALIZED_VIEW && entry.visible());
        if (view.isEmpty()) {
            String detail = store.object(name).filter(entry -> !entry.visible())
                .map(entry -> "materialized view \"" + name + "\" is still being created (job " + entry.jobId() + ")")
                .orElse("materialized view \"" + name + "\" does not exist");
            Problem.respond(ctx, Problem.of(404, "Not found", detail));
        }
        return view;
    }

    private static Map<String, Object> summary(CatalogEntry entry) {
        Relation relation = CatalogService.relation(entry);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", entry.name());
        json.put("statement", entry.statement());
        json.put("jobId", entry.jobId());
        json.put("columns", relation.schema().columns().stream()
            .map(column -> Map.of("name", column.name(), "type", column.type().postgresName(), "nullable", column.nullable()))
            .toList());
        json.put("key", relation.key().stream().map(Column::name).toList());
        json.put("topic", relation.topic());
        return json;
    }
}
