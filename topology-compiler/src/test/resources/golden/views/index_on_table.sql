CREATE INDEX orders_by_customer ON orders (customer)
