CREATE MATERIALIZED VIEW movements AS
SELECT id, amount FROM orders WHERE amount > 100
UNION ALL
SELECT id, -amount FROM orders WHERE customer = 'refunds'
