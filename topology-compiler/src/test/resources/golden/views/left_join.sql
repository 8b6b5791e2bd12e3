CREATE MATERIALIZED VIEW orders_with_tier AS
SELECT o.id, o.amount, c.tier FROM orders o LEFT JOIN customers c ON o.customer = c.name
