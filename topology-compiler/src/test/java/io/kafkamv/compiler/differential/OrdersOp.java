package io.kafkamv.compiler.differential;

/** One change to the orders table: an upsert of a whole row, or a delete by id. */
record OrdersOp(boolean delete, long id, String customer, Integer amount) {

    static OrdersOp upsert(long id, String customer, Integer amount) {
        return new OrdersOp(false, id, customer, amount);
    }

    static OrdersOp delete(long id) {
        return new OrdersOp(true, id, null, null);
    }
}
