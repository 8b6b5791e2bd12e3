CREATE MATERIALIZED VIEW revenue_by_customer AS
SELECT c.name, count(*) AS orders, sum(o.amount) AS revenue
FROM orders o JOIN customers c ON o.customer = c.name
WHERE o.amount > 0
GROUP BY c.name
