CREATE MATERIALIZED VIEW named AS SELECT id, upper(name) AS name FROM users WHERE id > 0
