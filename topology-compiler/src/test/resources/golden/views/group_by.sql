CREATE MATERIALIZED VIEW per_customer AS
SELECT customer, count(*) AS n, sum(amount), min(amount) AS lo, max(amount) AS hi, avg(amount) AS mean
FROM orders
GROUP BY customer
