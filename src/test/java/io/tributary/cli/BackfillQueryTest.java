package io.tributary.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BackfillQueryTest {
    /** The measured views are the ones earlier benches measured, so their figures stay comparable. */
    @Test
    void measuredViewsReadOrders() {
        assertEquals(
                "CREATE MATERIALIZED VIEW backfill_select_all AS SELECT * FROM orders",
                BackfillQuery.SELECT_ALL.createSql());
        assertEquals(
                "CREATE MATERIALIZED VIEW backfill_group_by AS SELECT customer_id, count(*) AS n, sum(amount) AS total,"
                        + " max(amount) AS biggest FROM orders GROUP BY customer_id",
                BackfillQuery.GROUP_BY.createSql());
        assertEquals(
                "CREATE MATERIALIZED VIEW backfill_join AS SELECT o.id, o.amount, o.status, c.name, c.region"
                        + " FROM orders o JOIN customers c ON o.customer_id = c.id",
                BackfillQuery.JOIN.createSql());
    }

    @Test
    void warmUpViewsReadTheirOwnTableWithTheSameQuery() {
        assertEquals(
                "CREATE MATERIALIZED VIEW w AS SELECT o.id, o.amount, o.status, c.name, c.region"
                        + " FROM warm o JOIN customers c ON o.customer_id = c.id",
                BackfillQuery.JOIN.createSql("w", "warm"));
        assertEquals(
                "CREATE TABLE warm (id BIGINT PRIMARY KEY, customer_id INT, amount NUMERIC(10,2), status TEXT)",
                BackfillRows.createOrders("warm"));
    }
}
