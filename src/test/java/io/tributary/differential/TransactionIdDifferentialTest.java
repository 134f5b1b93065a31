package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code txid_current()}, {@code pg_current_xact_id()} and {@code txid_current_if_assigned()}
 * (issue 12; they were 42883) on Tributary and on an embedded PostgreSQL: not the numbers, which
 * differ, but their types and their properties (unassigned before the first call, the same within a
 * transaction block, greater in the next transaction).
 */
class TransactionIdDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("transaction-id-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void typesAndTextAsPostgres() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT txid_current_if_assigned() IS NULL AS unassigned, pg_typeof(txid_current())::text AS t,"
                        + " pg_typeof(txid_current_if_assigned())::text AS i",
                "SELECT txid_current() = pg_current_xact_id()::text::bigint AS same_text",
                "SELECT txid_current() > 0 AS positive"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void sameInABlockGreaterInTheNext() throws SQLException {
        assertEquals(properties(pair.pg), properties(pair.tributary.connection));
    }

    /** What one connection's ids show over a block and the transactions around it. */
    private static List<Object> properties(Connection c) throws SQLException {
        List<Object> seen = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            long before = one(s, "SELECT txid_current()");
            s.execute("BEGIN");
            seen.add(s.executeQuery("SELECT txid_current_if_assigned() IS NULL").next());
            seen.add(oneOrNull(s, "SELECT txid_current_if_assigned()") == null);
            long first = one(s, "SELECT txid_current()");
            seen.add(first > before);
            seen.add(one(s, "SELECT txid_current()") == first);
            seen.add(one(s, "SELECT pg_current_xact_id()::text::bigint") == first);
            seen.add(one(s, "SELECT txid_current_if_assigned()") == first);
            s.execute("COMMIT");
            seen.add(oneOrNull(s, "SELECT txid_current_if_assigned()") == null);
            long next = one(s, "SELECT txid_current()");
            seen.add(next > first);
            seen.add(one(s, "SELECT txid_current()") > next);
        }
        return seen;
    }

    private static long one(Statement s, String sql) throws SQLException {
        Long v = oneOrNull(s, sql);
        return v == null ? -1 : v;
    }

    private static Long oneOrNull(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            long v = rs.getLong(1);
            return rs.wasNull() ? null : v;
        }
    }
}
