CREATE MATERIALIZED VIEW biggest_orders AS
SELECT customer, id, amount FROM (
  SELECT customer, id, amount, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY amount DESC) AS rn FROM orders
) ranked WHERE rn <= 3
