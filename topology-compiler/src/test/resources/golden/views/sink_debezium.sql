CREATE SINK revenue_changes AS
SELECT customer, sum(amount) AS revenue FROM orders GROUP BY customer
WITH (connector = 'kafka', topic = 'revenue-changes', type = 'debezium')
