CREATE MATERIALIZED VIEW totals AS SELECT count(*) AS n, sum(v1) AS total FROM t
