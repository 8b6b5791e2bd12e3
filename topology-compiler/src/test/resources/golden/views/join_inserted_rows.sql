CREATE MATERIALIZED VIEW clicks_by_tier AS
SELECT k.page, k.ms, c.tier FROM clicks k JOIN customers c ON k.page = c.name
