CREATE MATERIALIZED VIEW loyal AS
SELECT customer, count(DISTINCT amount) AS kinds
FROM orders
GROUP BY customer
HAVING count(*) > 1
