CREATE MATERIALIZED VIEW remainders AS SELECT id % amount AS wide, amount % id AS wide_divisor, amount % 4 AS narrow, mod(id, amount) AS by_function FROM orders
