CREATE MATERIALIZED VIEW left_lookup_join AS SELECT o.id, o.amount, c.tier FROM orders o LEFT JOIN customers FOR SYSTEM_TIME AS OF PROCTIME() c ON o.customer = c.name AND c.tier > 1
