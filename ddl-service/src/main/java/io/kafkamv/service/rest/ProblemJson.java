package io.kafkamv.service.rest;

import java.util.LinkedHashMap;
import java.util.Map;

/** A problem as an ordered map, for responses that add fields to it. */
final class ProblemJson {

    private ProblemJson() {
    }

    static Map<String, Object> toMap(Problem problem) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("type", problem.type());
        map.put("title", problem.title());
        map.put("status", problem.status());
        map.put("detail", problem.detail());
        putIfPresent(map, "code", problem.code());
        putIfPresent(map, "position", problem.position());
        putIfPresent(map, "hint", problem.hint());
        putIfPresent(map, "statement", problem.statement());
        return map;
    }

    private static void putIfPresent(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }
}
