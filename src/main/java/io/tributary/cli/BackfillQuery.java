package io.tributary.cli;

/** The views of {@code bench backfill}, each created, timed and dropped on its own over {@code orders}. */
enum BackfillQuery {
    SELECT_ALL("SELECT *", "SELECT * FROM ", "", "count(*), sum(id), sum(amount)"),
    GROUP_BY(
            "GROUP BY",
            "SELECT customer_id, count(*) AS n, sum(amount) AS total, max(amount) AS biggest FROM ",
            " GROUP BY customer_id",
            "count(*), sum(n), sum(total), sum(biggest)"),
    JOIN(
            "join",
            "SELECT o.id, o.amount, o.status, c.name, c.region FROM ",
            " o JOIN customers c ON o.customer_id = c.id",
            "count(*), sum(id), sum(amount)");

    /** The table the measured views read. */
    static final String ORDERS = "orders";

    private final String label;
    /** The query's text before and after its orders table's name. */
    private final String beforeOrders;

    private final String afterOrders;
    private final String fingerprint;

    BackfillQuery(String label, String beforeOrders, String afterOrders, String fingerprint) {
        this.label = label;
        this.beforeOrders = beforeOrders;
        this.afterOrders = afterOrders;
        this.fingerprint = fingerprint;
    }

    /** The short name the figures are printed under. */
    String label() {
        return label;
    }

    String viewName() {
        return "backfill_" + name().toLowerCase();
    }

    String createSql() {
        return createSql(viewName(), ORDERS);
    }

    /**
     * The same query over {@code ordersTable} (a table shaped as orders) as view {@code view}: the
     * warm-up builds each measured view's plan over a small table first.
     */
    String createSql(String view, String ordersTable) {
        return "CREATE MATERIALIZED VIEW " + view + " AS " + beforeOrders + ordersTable + afterOrders;
    }

    String dropSql() {
        return "DROP MATERIALIZED VIEW " + viewName();
    }

    /** One row of aggregates over the whole view, for {@link Fingerprint#read}. */
    String fingerprintSql() {
        return "SELECT " + fingerprint + " FROM " + viewName();
    }
}
