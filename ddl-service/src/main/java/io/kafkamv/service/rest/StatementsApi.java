package io.kafkamv.service.rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.StatementJob;
import io.kafkamv.jobstore.StatementProgress;
import io.kafkamv.service.background.BackgroundStatements;
import io.kafkamv.service.background.ResultJson;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.statement.ScriptRunner;
import io.kafkamv.service.statement.Session;
import io.kafkamv.service.statement.StatementExecutor;

/**
 * {@code POST /v1/statements}: runs one or more statements in order, in a session made for the
 * request from {@code "session"}, and answers with each one's result. The first error stops the
 * rest and is answered as problem+json, with the results before it.
 *
 * <p>With {@code ?async=true} the script is persisted as a background statement and answered at
 * once (202, with its id); {@code GET /v1/statements/{id}} follows it and pages through its
 * results, {@code DELETE} cancels it, or forgets it once it is finished.
 */
final class StatementsApi {

    record Request(String sql, Map<String, Object> session) {
    }

    private static final TypeReference<LinkedHashMap<String, Object>> RESULT_HEAD = new TypeReference<>() { };

    private final StatementExecutor executor;
    private final ScriptRunner scripts;
    private final BackgroundStatements background;
    private final JobStore store;

    StatementsApi(StatementExecutor executor, BackgroundStatements background, JobStore store) {
        this.executor = executor;
        this.scripts = new ScriptRunner(executor);
        this.background = background;
        this.store = store;
    }

    void post(Context ctx) {
        Request request = ctx.bodyAsClass(Request.class);
        if (request.sql() == null || request.sql().isBlank()) {
            Problem.respond(ctx, Problem.of(400, "Bad request", "the body needs a \"sql\" field with one or more statements"));
            return;
        }
        Map<String, String> variables = new LinkedHashMap<>();
        if (request.session() != null) {
            request.session().forEach((name, value) -> variables.put(name, String.valueOf(value)));
        }
        if (Boolean.parseBoolean(ctx.queryParam("async"))) {
            try {
                StatementJob accepted = background.submit(request.sql(), variables);
                ctx.status(202).header("Location", "/v1/statements/" + accepted.id()).json(Map.of(
                    "id", accepted.id(), "status", accepted.status().name(), "statement", accepted.statement()));
            } catch (SqlError error) {
                Problem.respond(ctx, Problem.of(error, request.sql()));
            }
            return;
        }
        Session session = executor.openSession("rest", "dev");
        variables.forEach(session::set);
        List<Map<String, Object>> results = new ArrayList<>();
        ScriptRunner.Run run = scripts.start(session, request.sql());
        while (run.hasNext()) {
            List<String> notices = new ArrayList<>();
            ScriptRunner.Outcome outcome = run.next(notices::add);
            if (outcome instanceof ScriptRunner.Failed failed) {
                Problem problem = Problem.of(failed.error(), failed.statement().text());
                Map<String, Object> body = new LinkedHashMap<>(ProblemJson.toMap(problem));
                body.put("results", results);
                ctx.status(problem.status()).json(body).contentType(Problem.CONTENT_TYPE);
                return;
            }
            results.add(ResultJson.of(outcome.statement().text(), ((ScriptRunner.Completed) outcome).result(), notices));
        }
        ctx.json(Map.of("results", results));
    }

    /** {@code GET /v1/statements/{id}?page=n}: status, progress, and page n (from 0) of each result's rows. */
    void get(Context ctx) {
        Optional<StatementJob> found = statement(ctx);
        if (found.isEmpty()) {
            return;
        }
        StatementJob statement = found.get();
        int page = Math.max(0, ctx.queryParamAsClass("page", Integer.class).getOrDefault(0));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", statement.id());
        boolean cancelling = !statement.status().isFinished() && store.cancelled(statement.id()).isPresent();
        body.put("status", cancelling ? "CANCELLING" : statement.status().name());
        body.put("statement", statement.statement());
        body.put("created_at", statement.createdAt().toString());
        if (statement.finishedAt() != null) {
            body.put("finished_at", statement.finishedAt().toString());
        }
        Map<String, Object> progress = new LinkedHashMap<>();
        if (statement.status().isFinished()) {
            progress.put("rows_written", statement.rowsWritten());
        } else {
            Optional<StatementProgress> report = store.progress(statement.id());
            progress.put("rows_written", report.map(StatementProgress::rowsWritten).orElse(0L));
            report.ifPresent(known -> {
                progress.put("instance", known.instance());
                progress.put("reported_at", known.at().toString());
            });
        }
        body.put("progress", progress);
        if (statement.error() != null) {
            body.put("error", statement.error());
        }
        List<Map<String, Object>> results = new ArrayList<>();
        for (int index = 0; index < statement.results().size(); index++) {
            JsonNode head = statement.results().get(index);
            Map<String, Object> result = JobStore.mapper().convertValue(head, RESULT_HEAD);
            if (head.has("pages")) {
                result.put("page", page);
                result.put("rows", store.resultPage(statement.id(), index, page).orElse(JobStore.mapper().createArrayNode()));
            }
            results.add(result);
        }
        body.put("results", results);
        ctx.json(body);
    }

    /** {@code DELETE /v1/statements/{id}}: cancels a running statement, forgets a finished one. */
    void delete(Context ctx) {
        Optional<StatementJob> found = statement(ctx);
        if (found.isEmpty()) {
            return;
        }
        StatementJob statement = found.get();
        if (statement.status().isFinished()) {
            store.removeStatement(statement.id());
            ctx.status(204);
        } else {
            store.cancel(statement.id(), "cancelled by user");
            ctx.status(202).json(Map.of("id", statement.id(), "status", "CANCELLING"));
        }
    }

    private Optional<StatementJob> statement(Context ctx) {
        Optional<StatementJob> statement;
        try {
            statement = store.statement(Long.parseLong(ctx.pathParam("id")));
        } catch (NumberFormatException e) {
            statement = Optional.empty();
        }
        if (statement.isEmpty()) {
            Problem.respond(ctx, Problem.of(404, "Not found", "no background statement " + ctx.pathParam("id")));
        }
        return statement;
    }
}
