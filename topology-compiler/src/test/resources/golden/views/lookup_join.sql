CREATE MATERIALIZED VIEW lookup_join AS SELECT k.page, k.ms, c.tier FROM clicks k JOIN customers FOR SYSTEM_TIME AS OF PROCTIME() c ON k.page = c.name
