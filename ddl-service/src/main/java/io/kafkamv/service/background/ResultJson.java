package io.kafkamv.service.background;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.result.StatementResult;

/** A statement's result as the REST API shows it: the statement, its tag, and its columns and rows. */
public final class ResultJson {

    private ResultJson() {
    }

    public static Map<String, Object> of(String statement, StatementResult result, List<String> notices) {
        Map<String, Object> json = head(statement, result, notices);
        if (result instanceof StatementResult.Rows rows) {
            json.put("rows", rows(rows.rows()));
        }
        return json;
    }

    /** Everything but the rows. */
    static Map<String, Object> head(String statement, StatementResult result, List<String> notices) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("statement", statement);
        json.put("tag", result.commandTag());
        if (result instanceof StatementResult.Rows rows) {
            List<Map<String, String>> columns = new ArrayList<>();
            for (ResultColumn column : rows.columns()) {
                columns.add(Map.of("name", column.name(), "type", column.type().postgresName()));
            }
            json.put("columns", columns);
        }
        if (!notices.isEmpty()) {
            json.put("notices", notices);
        }
        return json;
    }

    static List<List<Object>> rows(List<List<Object>> rows) {
        return rows.stream().map(JsonValues::row).toList();
    }
}
