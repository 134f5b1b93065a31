package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TIME parameters against an embedded PostgreSQL: {@code 24:00:00}, the end of the day, stays
 * itself (PostgreSQL keeps it; a trip through {@code java.sql.Time} wraps it to 00:00:00), as a
 * {@code LocalTime.MAX} (which pgjdbc sends as 24:00:00) and as text typed time, in queries and in
 * writes; ordinary times alongside.
 */
class TimeParameterDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("time-parameter-");
        pair.setUpAlike(
                List.of("CREATE TABLE tt (id INT PRIMARY KEY, t TIME)", "INSERT INTO tt VALUES (1, '24:00:00')"));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void endOfDayParametersStayEndOfDay() {
        List<String> mismatches = new ArrayList<>();
        List<Object[]> cases = List.of(
                new Object[] {"SELECT CAST(? AS time) AS t", LocalTime.MAX},
                new Object[] {"SELECT CAST(? AS time) AS t", LocalTime.of(12, 30, 1)},
                new Object[] {"SELECT ? > TIME '23:59:59' AS later", LocalTime.MAX},
                new Object[] {"SELECT id FROM tt WHERE t = ?", LocalTime.MAX},
                new Object[] {"INSERT INTO tt VALUES (2, ?)", LocalTime.MAX},
                new Object[] {"SELECT CAST(? AS time) AS t", "24:00:00"},
                new Object[] {"SELECT id FROM tt WHERE t = ? ORDER BY id", "24:00:00"},
                new Object[] {"INSERT INTO tt VALUES (3, ?)", "24:00:00"},
                new Object[] {"SELECT * FROM tt ORDER BY id", null});
        for (Object[] c : cases) {
            String sql = (String) c[0];
            String expected = outcome(pair.pg, sql, c[1]);
            String actual = outcome(pair.tributary.connection, sql, c[1]);
            if (!expected.equals(actual)) {
                mismatches.add(sql + " [" + c[1] + "]\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** {@code sql} with its parameter, if any, bound as a time: a LocalTime as it is, text as typed time. */
    private static String outcome(Connection c, String sql, Object param) {
        if (param == null) {
            return StatementOutcome.of(c, sql, true);
        }
        if (param instanceof LocalTime) {
            return StatementOutcome.ofPrepared(c, sql, List.of(param));
        }
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setObject(1, param, Types.TIME);
            return s.execute() ? rows(s) : "count " + s.getUpdateCount();
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState();
        }
    }

    private static String rows(PreparedStatement s) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (var rs = s.getResultSet()) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows.toString();
    }
}
