CREATE MATERIALIZED VIEW clicks_last_five_minutes AS
SELECT window_start, page, count(*) AS clicks
FROM HOP(clicks, ts, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)
GROUP BY window_start, page
