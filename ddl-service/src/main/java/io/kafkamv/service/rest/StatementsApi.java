package io.kafkamv.service.rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.javalin.http.Context;
import io.kafkamv.service.sql.ResultColumn;
import io.kafkamv.service.sql.Session;
import io.kafkamv.service.sql.SqlError;
import io.kafkamv.service.sql.SqlScript;
import io.kafkamv.service.sql.StatementExecutor;
import io.kafkamv.service.sql.StatementResult;

/**
 * {@code POST /v1/statements}: runs one or more statements in order, in a session made for the
 * request from {@code "session"}, and answers with each one's result. The first error stops the
 * rest and is answered as problem+json, with the results before it.
 */
final class StatementsApi {

    record Request(String sql, Map<String, Object> session) {
    }

    private final StatementExecutor executor;

    StatementsApi(StatementExecutor executor) {
        this.executor = executor;
    }

    void post(Context ctx) {
        Request request = ctx.bodyAsClass(Request.class);
        if (request.sql() == null || request.sql().isBlank()) {
            Problem.respond(ctx, Problem.of(400, "Bad request", "the body needs a \"sql\" field with one or more statements"));
            return;
        }
        Session session = executor.openSession("rest", "dev");
        if (request.session() != null) {
            request.session().forEach((name, value) -> session.set(name, String.valueOf(value)));
        }
        List<Map<String, Object>> results = new ArrayList<>();
        for (SqlScript.Statement statement : SqlScript.split(request.sql())) {
            List<String> notices = new ArrayList<>();
            try {
                StatementResult result = executor.execute(session, statement.text(), notices::add);
                results.add(json(statement.text(), result, notices));
            } catch (SqlError error) {
                Problem problem = Problem.of(error.shiftedBy(statement.offset()), statement.text());
                Map<String, Object> body = new LinkedHashMap<>(ProblemJson.toMap(problem));
                body.put("results", results);
                ctx.status(problem.status()).json(body).contentType(Problem.CONTENT_TYPE);
                return;
            }
        }
        ctx.json(Map.of("results", results));
    }

    private static Map<String, Object> json(String statement, StatementResult result, List<String> notices) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("statement", statement);
        json.put("tag", result.commandTag());
        if (result instanceof StatementResult.Rows rows) {
            List<Map<String, String>> columns = new ArrayList<>();
            for (ResultColumn column : rows.columns()) {
                columns.add(Map.of("name", column.name(), "type", column.type().postgresName()));
            }
            json.put("columns", columns);
            json.put("rows", rows.rows().stream().map(JsonValues::row).toList());
        }
        if (!notices.isEmpty()) {
            json.put("notices", notices);
        }
        return json;
    }
}
