CREATE MATERIALIZED VIEW clicks_per_minute AS
SELECT window_start, window_end, count(*) AS clicks
FROM TUMBLE(clicks, ts, INTERVAL '1' MINUTE)
GROUP BY window_start, window_end
