package io.tributary.differential;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * Statements run on PostgreSQL and on Tributary, their outcomes written as text that shows types
 * and error messages, and the statements whose outcomes differ listed with both: the comparison of
 * differential tests over lists of statements. Immutable; used from the test thread.
 */
final class ComparedOutcomes {
    /** Whether a column's type is its JDBC type number, else the type's name. */
    private final boolean jdbcTypes;
    /** Whether an error's outcome ends with the server's HINT. */
    private final boolean hints;
    /** Whether an error's outcome ends with the cursor position the server sent (0 for none). */
    private final boolean positions;

    ComparedOutcomes(boolean jdbcTypes, boolean hints) {
        this(jdbcTypes, hints, false);
    }

    ComparedOutcomes(boolean jdbcTypes, boolean hints, boolean positions) {
        this.jdbcTypes = jdbcTypes;
        this.hints = hints;
        this.positions = positions;
    }

    /**
     * Each of {@code statements} run on {@code pg}, then on {@code tributary}, in order; the ones
     * whose outcomes differ, each with both. A populated CREATE MATERIALIZED VIEW that Tributary
     * answers with no row count is not one (README's known limits).
     */
    List<String> mismatches(Connection pg, Connection tributary, List<String> statements) {
        List<String> mismatches = new ArrayList<>();
        for (String sql : statements) {
            String expected = of(pg, sql);
            String actual = of(tributary, sql);
            boolean tagOnly = sql.startsWith("CREATE MATERIALIZED VIEW") && actual.equals("count 0");
            if (!expected.equals(actual) && !tagOnly) {
                mismatches.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        return mismatches;
    }

    /**
     * Rows as {@code label:type=value}, an update count, or {@code ERROR state message} (and {@code
     * HINT hint} when hints are shown and the server sent the error, then {@code at position} when
     * positions are).
     */
    String of(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            if (!s.execute(sql)) {
                return "count " + s.getUpdateCount();
            }
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = s.getResultSet()) {
                ResultSetMetaData meta = rs.getMetaData();
                while (rs.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        String type = jdbcTypes ? Integer.toString(meta.getColumnType(i)) : meta.getColumnTypeName(i);
                        row.add(meta.getColumnLabel(i) + ":" + type + "=" + rs.getString(i));
                    }
                    rows.add(row.toString());
                }
            }
            return rows.toString();
        } catch (PSQLException e) {
            ServerErrorMessage server = e.getServerErrorMessage();
            return server == null
                    ? "ERROR " + e.getSQLState() + " " + e.getMessage()
                    : "ERROR " + e.getSQLState() + " " + server.getMessage()
                            + (hints ? " HINT " + server.getHint() : "")
                            + (positions ? " at " + server.getPosition() : "");
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState() + " " + e.getMessage();
        }
    }
}
