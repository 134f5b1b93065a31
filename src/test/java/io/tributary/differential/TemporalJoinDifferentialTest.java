package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Temporal joins ({@code JOIN side_input FOR SYSTEM_TIME AS OF PROCTIME()}) against PostgreSQL, where the expected
 * rows are computed batch by batch: each batch of bids is joined in PostgreSQL with the side input as it stands
 * when the batch is written (the same statements change both databases' side input between batches), and kept;
 * later side-input changes leave kept rows alone, a deleted bid's rows go, an updated bid is joined anew. The
 * views (one created over rows already written, so it backfills) must hold exactly the kept rows. Then the
 * refusals: a condition without the whole primary key, and the other join types, with 0A000.
 */
class TemporalJoinDifferentialTest {
    private static final String INNER = "SELECT B.id, B.auction, B.price, S.value FROM bids B"
            + " JOIN side_input FOR SYSTEM_TIME AS OF PROCTIME() S ON mod(B.auction, 10000) = S.key";
    /** Auctions reach 12,000, so some bids find no key; a condition on the right side alone. */
    private static final String LEFT = "SELECT B.id, B.auction, S.value FROM bids B"
            + " LEFT JOIN side_input FOR SYSTEM_TIME AS OF PROCTIME() S ON B.auction = S.key AND S.value <> 'x'";

    private static final String PG_INNER = "SELECT B.id, B.auction, B.price, S.value FROM bids B"
            + " JOIN side_input S ON mod(B.auction, 10000) = S.key";
    private static final String PG_LEFT =
            "SELECT B.id, B.auction, S.value FROM bids B LEFT JOIN side_input S ON B.auction = S.key AND S.value <> 'x'";

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("temporaljoin-");

    @Test
    void eachBidKeepsTheSideInputOfItsBatch() throws Exception {
        both("CREATE TABLE side_input (key BIGINT PRIMARY KEY, value VARCHAR)");
        both("INSERT INTO side_input SELECT v, v::varchar FROM generate_series(0, 9999) AS t(v)");
        both("CREATE TABLE bids (id BIGINT PRIMARY KEY, auction BIGINT, price BIGINT)");
        exec(databases.pg(), "CREATE TABLE expected_inner (id BIGINT, auction BIGINT, price BIGINT, value VARCHAR)");
        exec(databases.pg(), "CREATE TABLE expected_left (id BIGINT, auction BIGINT, value VARCHAR)");
        batch(1, 400);
        // created over the first batch: its backfill joins the side input as it is now
        exec(databases.trib(), "CREATE MATERIALIZED VIEW joined AS " + INNER);
        exec(databases.trib(), "CREATE MATERIALIZED VIEW left_joined AS " + LEFT);
        both("UPDATE side_input SET value = value || '-v2' WHERE key % 3 = 0");
        both("DELETE FROM side_input WHERE key % 7 = 0");
        both("UPDATE side_input SET value = 'x' WHERE key % 5 = 0");
        batch(401, 800);
        both("UPDATE side_input SET value = value || '-v3' WHERE key % 2 = 0");
        both("INSERT INTO side_input SELECT v, 'new' || v FROM generate_series(10000, 10999) AS t(v)");
        batch(801, 1200);
        // a deleted bid retracts the row it produced, whatever the side input holds now
        both("DELETE FROM bids WHERE id % 4 = 0");
        exec(databases.pg(), "DELETE FROM expected_inner WHERE id % 4 = 0");
        exec(databases.pg(), "DELETE FROM expected_left WHERE id % 4 = 0");
        // an updated bid is processed anew: joined with the current side input
        both("UPDATE bids SET price = price + 1 WHERE id % 10 = 1");
        exec(databases.pg(), "DELETE FROM expected_inner WHERE id % 10 = 1");
        exec(databases.pg(), "DELETE FROM expected_left WHERE id % 10 = 1");
        keep("id % 10 = 1");
        assertNull(ViewResults.difference(
                ViewResults.read(databases.pg(), "SELECT * FROM expected_inner"),
                ViewResults.read(databases.trib(), "SELECT id, auction, price, value FROM joined"),
                false));
        assertNull(ViewResults.difference(
                ViewResults.read(databases.pg(), "SELECT * FROM expected_left"),
                ViewResults.read(databases.trib(), "SELECT id, auction, value FROM left_joined"),
                false));
        // a query reads the current side input: the plain join
        assertNull(ViewResults.difference(
                ViewResults.read(databases.pg(), PG_INNER), ViewResults.read(databases.trib(), INNER), false));
        refusals();
    }

    /** Bids {@code from..to} written to both; their joins with the side input as it is now kept in PostgreSQL. */
    private static void batch(int from, int to) throws SQLException {
        both("INSERT INTO bids SELECT i, (i * 7919) % 12000, i * 3 FROM generate_series(" + from + ", " + to
                + ") AS t(i)");
        keep("id BETWEEN " + from + " AND " + to);
    }

    private static void keep(String bids) throws SQLException {
        exec(databases.pg(), "INSERT INTO expected_inner SELECT * FROM (" + PG_INNER + ") j WHERE " + bids);
        exec(databases.pg(), "INSERT INTO expected_left SELECT * FROM (" + PG_LEFT + ") j WHERE " + bids);
    }

    private static void refusals() {
        assertEquals(
                "0A000",
                state("CREATE MATERIALIZED VIEW r1 AS SELECT B.id FROM bids B"
                        + " JOIN bids FOR SYSTEM_TIME AS OF PROCTIME() C ON B.auction = C.auction"));
        assertEquals(
                "0A000",
                state("CREATE MATERIALIZED VIEW r2 AS SELECT B.id FROM bids B"
                        + " RIGHT JOIN side_input FOR SYSTEM_TIME AS OF PROCTIME() S ON B.auction = S.key"));
        assertEquals(
                "0A000",
                state(
                        "CREATE MATERIALIZED VIEW r3 AS SELECT B.id FROM bids B"
                                + " JOIN side_input FOR SYSTEM_TIME AS OF TIMESTAMP '2020-01-01 00:00:00' S ON B.auction = S.key"));
        assertEquals(
                "0A000",
                state(
                        "SELECT B.id FROM bids B"
                                + " JOIN side_input FOR SYSTEM_TIME AS OF TIMESTAMP '2020-01-01 00:00:00' S ON B.auction = S.key"));
    }

    private static void both(String sql) throws SQLException {
        exec(databases.trib(), sql);
        exec(databases.pg(), sql);
    }

    private static String state(String sql) {
        try (Statement st = databases.trib().createStatement()) {
            st.execute(sql);
            return "00000";
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
