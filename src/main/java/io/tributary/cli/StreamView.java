package io.tributary.cli;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The views of {@code bench stream}, each measured on its own over {@code orders} and
 * {@code customers}. A view is probed by inserting one order and polling the view for the row
 * that order makes appear, by the view's key.
 */
enum StreamView {
    FILTER(
            "filter",
            "SELECT id, amount * 2 AS double_amount, status FROM orders WHERE status <> 'cancelled'",
            "id",
            "count(*), sum(double_amount)"),
    GROUP_BY(
            "group by",
            "SELECT customer_id, count(*) AS n, sum(amount) AS total, max(amount) AS biggest FROM orders GROUP BY customer_id",
            "customer_id",
            "count(*), sum(n), sum(total), sum(biggest)"),
    JOIN(
            "join",
            "SELECT o.id, o.amount, c.region FROM orders o JOIN customers c ON o.customer_id = c.id",
            "id",
            "count(*), sum(amount)");

    private final String label;
    private final String query;
    private final String key;
    private final String fingerprint;

    StreamView(String label, String query, String key, String fingerprint) {
        this.label = label;
        this.query = query;
        this.key = key;
        this.fingerprint = fingerprint;
    }

    /** The short name the figures are printed under. */
    String label() {
        return label;
    }

    String viewName() {
        return "bench_" + name().toLowerCase();
    }

    String createSql() {
        return "CREATE MATERIALIZED VIEW " + viewName() + " AS " + query;
    }

    /** A unique index on the key, which PostgreSQL's view needs to be read by key as Tributary's is. */
    String postgresIndexSql() {
        return "CREATE UNIQUE INDEX ON " + viewName() + " (" + key + ")";
    }

    String dropSql() {
        return "DROP MATERIALIZED VIEW " + viewName();
    }

    /** One row of aggregates over the whole view: equal on both targets when their views are equal. */
    String fingerprintSql() {
        return "SELECT " + fingerprint + " FROM " + viewName();
    }

    /** Selects the view's row of one key, bound by {@link #bindProbeKey}. */
    String pollSql() {
        return "SELECT " + key + " FROM " + viewName() + " WHERE " + key + " = ?";
    }

    /**
     * The customer of the {@code n}th probe order (from 0): for the GROUP BY view a customer id no
     * other order has, so that the probe creates a group; otherwise an existing customer, so that
     * the probe also appears in the join.
     */
    int probeCustomer(long n, int customers) {
        return this == GROUP_BY ? (int) (-1 - n) : (int) (1 + n % customers);
    }

    /** Binds the view key of the probe order {@code (orderId, customerId)} as the poll's parameter. */
    void bindProbeKey(PreparedStatement poll, long orderId, int customerId) throws SQLException {
        if (this == GROUP_BY) {
            poll.setInt(1, customerId);
        } else {
            poll.setLong(1, orderId);
        }
    }
}
