package io.kafkamv.service.rest;

import java.time.Duration;
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
import io.kafkamv.service.jobs.IncompleteReadException;
import io.kafkamv.service.jobs.ViewReads;
import io.kafkamv.service.jobs.ViewScan;
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
                json.put("plan", RedactedJson.of(job.plan()));
                json.put("topology", TopologyFactory.build(PlanJson.fromTree(job.plan())).describe().toString());
            });
            ctx.json(json);
        });
    }

    /**
     * Rows of the view, read across the instances as SELECT reads them: the one with {@code key} (one value per
     * key column), or up to {@code limit}; 503 rather than part of the rows while its partitions move.
     */
    void rows(Context ctx) throws InterruptedException {
        Optional<CatalogEntry> view = view(ctx);
        if (view.isEmpty()) {
            return;
        }
        Relation relation = CatalogService.relation(view.get());
        long jobId = view.get().jobId();
        List<String> key = ctx.queryParams("key");
        List<List<Object>> result = new ArrayList<>();
        Object[] keyRow = null;
        if (!key.isEmpty()) {
            if (key.size() != relation.key().size()) {
                Problem.respond(ctx, Problem.of(400, "Bad request",
                    "the view is keyed by " + relation.key().stream().map(Column::name).toList()
                        + ": give one key parameter for each"));
                return;
            }
            keyRow = new Object[key.size()];
            try {
                for (int i = 0; i < keyRow.length; i++) {
                    keyRow[i] = JdbcValues.toColumn(key.get(i), relation.key().get(i), relation.name());
                }
            } catch (SqlError error) {
                Problem.respond(ctx, Problem.of(error, null));
                return;
            }
        }
        int limit = ctx.queryParam("limit") == null ? DEFAULT_LIMIT : Integer.parseInt(ctx.queryParam("limit"));
        Optional<Optional<Object[]>> held = keyRow == null ? Optional.empty() : reads.viewRowByKey(jobId, keyRow);
        if (held.isPresent()) {
            held.get().ifPresent(row -> result.add(Arrays.asList(row)));
        } else {
            try (ViewScan scan = reads.openViewRows(jobId, null, null, Duration.ofSeconds(30)).orElse(null)) {
                if (scan == null) {
                    Problem.respond(ctx, Problem.of(503, "Service unavailable", "the view's rows are not ready on this instance yet"));
                    return;
                }
                while (result.size() < limit && scan.hasNext()) {
                    Object[] row = scan.next();
                    if (keyRow == null || hasKey(relation, row, keyRow)) {
                        result.add(Arrays.asList(row));
                    }
                }
            } catch (IncompleteReadException e) {
                Problem.respond(ctx, Problem.of(503, "Service unavailable", e.getMessage() + "; " + e.hint()));
                return;
            }
        }
        ctx.json(Map.of("columns", relation.schema().columns().stream().map(Column::name).toList(),
            "rows", result.stream().map(JsonValues::row).toList()));
    }

    /** Whether the row's key columns hold these values (decimals compared by value, as the key's encoding does). */
    private static boolean hasKey(Relation relation, Object[] row, Object[] key) {
        List<Column> columns = relation.schema().columns();
        for (int i = 0; i < key.length; i++) {
            Object value = row[columns.indexOf(relation.key().get(i))];
            boolean same = value instanceof java.math.BigDecimal number && key[i] instanceof java.math.BigDecimal other
                ? number.compareTo(other) == 0 : java.util.Objects.equals(value, key[i]);
            if (!same) {
                return false;
            }
        }
        return true;
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
