package io.tributary.cli;

/** The views of {@code bench backfill}, each created, timed and dropped on its own over {@code orders}. */
enum BackfillQuery {
    SELECT_ALL("SELECT *", "SELECT * FROM orders", "count(*), sum(id), sum(amount)"),
    GROUP_BY(
            "GROUP BY",
            "SELECT customer_id, count(*) AS n, sum(amount) AS total, max(amount) AS biggest FROM orders GROUP BY customer_id",
            "count(*), sum(n), sum(total), sum(biggest)"),
    JOIN(
            "join",
            "SELECT o.id, o.amount, o.status, c.name, c.region FROM orders o JOIN customers c ON o.customer_id = c.id",
            "count(*), sum(id), sum(amount)");

    private final String label;
    private final String query;
    private final String fingerprint;

    BackfillQuery(String label, String query, String fingerprint) {
        this.label = label;
        this.query = query;
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
        return "CREATE MATERIALIZED VIEW " + viewName() + " AS " + query;
    }

    String dropSql() {
        return "DROP MATERIALIZED VIEW " + viewName();
    }

    /** One row of aggregates over the whole view, for {@link Fingerprint#read}. */
    String fingerprintSql() {
        return "SELECT " + fingerprint + " FROM " + viewName();
    }
}
