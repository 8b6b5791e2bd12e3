CREATE MATERIALIZED VIEW slow_pages AS
SELECT page, count(*) AS hits, max(ms) AS worst FROM clicks WHERE ms > 100 GROUP BY page
