package io.tributary.cli;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The upstream data of {@code bench backfill}: {@code orders} and {@code customers}, each row a
 * function of its id, so that the COPY input of both targets and the single-row INSERTs made
 * during a backfill describe the same rows.
 */
final class BackfillRows {
    static final String CREATE_CUSTOMERS = "CREATE TABLE customers (id INT PRIMARY KEY, name TEXT, region TEXT)";
    static final String CREATE_ORDERS = createOrders(BackfillQuery.ORDERS);
    static final String INSERT_ORDER = "INSERT INTO orders VALUES (?, ?, ?, ?)";

    private final int customers;

    /** The DDL of a table shaped as orders, named {@code table}. */
    static String createOrders(String table) {
        return "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, customer_id INT, amount NUMERIC(10,2), status TEXT)";
    }

    /** @param customers the number of customers, ids {@code 1..customers}; every order has one of them */
    BackfillRows(int customers) {
        this.customers = customers;
    }

    /** COPY text of the customer {@code id}. */
    void appendCustomer(StringBuilder out, long id) {
        out.append(id)
                .append("\tcustomer ")
                .append(id)
                .append("\tregion ")
                .append(id % 8)
                .append('\n');
    }

    /** COPY text of the order {@code id}. */
    void appendOrder(StringBuilder out, long id) {
        out.append(id)
                .append('\t')
                .append(customer(id))
                .append('\t')
                .append(amount(id).toPlainString())
                .append('\t')
                .append(status(id))
                .append('\n');
    }

    /** Binds the order {@code id} as the parameters of {@link #INSERT_ORDER}. */
    void bindOrder(PreparedStatement insert, long id) throws SQLException {
        insert.setLong(1, id);
        insert.setInt(2, customer(id));
        insert.setBigDecimal(3, amount(id));
        insert.setString(4, status(id));
    }

    private int customer(long orderId) {
        return (int) (orderId % customers) + 1;
    }

    private static BigDecimal amount(long orderId) {
        return BigDecimal.valueOf(orderId % 100_000 * 37 % 100_000, 2);
    }

    private static String status(long orderId) {
        return ChangeScript.STATUSES.get((int) (orderId % ChangeScript.STATUSES.size()));
    }
}
