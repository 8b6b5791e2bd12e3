package io.kafkamv.compiler.differential;

/**
 * One change to a test table: an upsert of a whole row, or a delete by key. Both tables have a key
 * and two nullable columns: {@code orders(id, customer, amount)} and {@code customers(name, tier, region)}.
 */
record Change(Table table, boolean delete, Object key, Object first, Object second) {

    enum Table {
        ORDERS("orders", "id BIGINT PRIMARY KEY, customer TEXT, amount INT", "id", "customer", "amount"),
        CUSTOMERS("customers", "name TEXT PRIMARY KEY, tier INT, region TEXT", "name", "tier", "region");

        final String name;
        final String columns;
        final String key;
        final String first;
        final String second;

        Table(String name, String columns, String key, String first, String second) {
            this.name = name;
            this.columns = columns;
            this.key = key;
            this.first = first;
            this.second = second;
        }
    }

    static Change order(long id, String customer, Integer amount) {
        return new Change(Table.ORDERS, false, id, customer, amount);
    }

    static Change deleteOrder(long id) {
        return new Change(Table.ORDERS, true, id, null, null);
    }

    static Change customer(String name, Integer tier, String region) {
        return new Change(Table.CUSTOMERS, false, name, tier, region);
    }

    static Change deleteCustomer(String name) {
        return new Change(Table.CUSTOMERS, true, name, null, null);
    }
}
