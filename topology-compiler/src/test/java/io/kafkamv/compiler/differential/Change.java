package io.kafkamv.compiler.differential;

import java.sql.Types;

/**
 * One change to a test table: an upsert of a whole row, or a delete by key. Every table has a key and
 * two nullable columns: {@code orders(id, customer, amount)}, {@code customers(name, tier, region)} and
 * {@code clicks(id, ts, amount)}, whose {@code ts} is a timestamp in milliseconds since the epoch (UTC).
 */
record Change(Table table, boolean delete, Object key, Object first, Object second) {

    enum Table {
        ORDERS("orders", "id BIGINT PRIMARY KEY, customer TEXT, amount INT", "id", "customer", "amount",
            Types.VARCHAR, Types.INTEGER),
        CUSTOMERS("customers", "name TEXT PRIMARY KEY, tier INT, region TEXT", "name", "tier", "region",
            Types.INTEGER, Types.VARCHAR),
        CLICKS("clicks", "id BIGINT PRIMARY KEY, ts TIMESTAMP, amount INT", "id", "ts", "amount",
            Types.TIMESTAMP, Types.INTEGER);

        final String name;
        final String columns;
        final String key;
        final String first;
        final String second;
        /** The JDBC types of the two nullable columns. */
        final int firstType;
        final int secondType;

        Table(String name, String columns, String key, String first, String second, int firstType, int secondType) {
            this.name = name;
            this.columns = columns;
            this.key = key;
            this.first = first;
            this.second = second;
            this.firstType = firstType;
            this.secondType = secondType;
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

    static Change click(long id, Long at, Integer amount) {
        return new Change(Table.CLICKS, false, id, at, amount);
    }

    static Change deleteClick(long id) {
        return new Change(Table.CLICKS, true, id, null, null);
    }
}
