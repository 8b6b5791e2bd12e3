package io.kafkamv.bench;

/** The views every contender computes over the same events. */
public enum BackfillQuery {

    FILTER("projection + filter", "SELECT id, v * 2 AS v2 FROM events WHERE v < 50"),
    GROUP_BY_1K("GROUP BY, 1,000 groups", "SELECT g, count(*) AS n, sum(v) AS s FROM events GROUP BY g"),
    GROUP_BY_ROW("GROUP BY, one group per row", "SELECT id, count(*) AS n, sum(v) AS s FROM events GROUP BY id"),
    JOIN("join with a 1,000-row table", "SELECT e.id, e.v, d.name FROM events e JOIN dims d ON e.g = d.g"),
    LOOKUP_JOIN("lookup join with a 1,000-row table",
        "SELECT e.id, e.v, d.name FROM events e JOIN dims_by_g FOR SYSTEM_TIME AS OF PROCTIME() d ON e.g = d.g");

    private final String title;
    private final String sql;

    BackfillQuery(String title, String sql) {
        this.title = title;
        this.sql = sql;
    }

    public String title() {
        return title;
    }

    public String sql() {
        return sql;
    }

    /** The query over another source of the same events. */
    public String sqlOver(String source) {
        return sql.replace("FROM events", "FROM " + source);
    }

    public String viewName() {
        return "bench_" + name().toLowerCase(java.util.Locale.ROOT);
    }
}
