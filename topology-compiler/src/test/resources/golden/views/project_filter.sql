CREATE MATERIALIZED VIEW big_orders AS
SELECT id, upper(customer) AS who, amount * 2 AS doubled, CASE WHEN amount > 100 THEN 'large' ELSE 'small' END AS size
FROM orders
WHERE amount > 10 AND customer IS NOT NULL
