package io.tributary.differential;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * What one statement gives on a connection, as text two servers' answers are compared by: the
 * update count, or each row's columns as {@code label=value} (with the JDBC type when asked), or
 * the SQLSTATE of the error (with its message for an internal error, so a failure shows the cause).
 */
final class StatementOutcome {
    private StatementOutcome() {}

    /**
     * Runs each of {@code statements} on {@code postgres}, then on {@code tributary}, and returns
     * one line per statement whose outcomes differ (statement, then both outcomes), in order: an
     * empty list when all agree. Outcomes show each column's JDBC type.
     */
    static List<String> mismatches(Connection postgres, Connection tributary, List<String> statements) {
        return mismatches(postgres, tributary, statements, (c, sql) -> of(c, sql, true));
    }

    /**
     * The same with each outcome written by {@code outcome} (for example {@link #withTypeNames}, or
     * a test's own rendering of errors): the one loop of the differential tests that compare lists
     * of statements. Each statement runs once on each connection, PostgreSQL's first, so a
     * statement may depend on the writes of the ones before it; nothing is compared but the two
     * texts, so the rendering alone decides how strict the comparison is.
     */
    static List<String> mismatches(
            Connection postgres,
            Connection tributary,
            List<String> statements,
            BiFunction<Connection, String, String> outcome) {
        List<String> out = new ArrayList<>();
        for (String sql : statements) {
            String expected = outcome.apply(postgres, sql);
            String actual = outcome.apply(tributary, sql);
            if (!expected.equals(actual)) {
                out.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        return out;
    }

    /** {@link #of(Connection, String, boolean)} without column types: labels and values only. */
    static String withoutTypes(Connection c, String sql) {
        return of(c, sql, ColumnLabel.PLAIN);
    }

    static String of(Connection c, String sql, boolean columnTypes) {
        return of(c, sql, columnTypes ? ColumnLabel.JDBC_TYPE : ColumnLabel.PLAIN);
    }

    /** The same with each column as {@code label:typename=value}, the type's name as the server's RowDescription OID names it. */
    static String withTypeNames(Connection c, String sql) {
        return of(c, sql, ColumnLabel.TYPE_NAME);
    }

    /** The same for {@code sql} prepared, with {@code params} bound by {@code setObject} in order. */
    static String ofPrepared(Connection c, String sql, List<Object> params) {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                s.setObject(i + 1, params.get(i));
            }
            return of(s, s.execute(), ColumnLabel.PLAIN);
        } catch (SQLException e) {
            return error(e);
        }
    }

    /** How a column is named in an outcome. */
    private enum ColumnLabel {
        PLAIN,
        JDBC_TYPE,
        TYPE_NAME;

        String of(ResultSetMetaData meta, int column) throws SQLException {
            return switch (this) {
                case PLAIN -> meta.getColumnLabel(column);
                case JDBC_TYPE -> meta.getColumnLabel(column) + ":" + meta.getColumnType(column);
                case TYPE_NAME -> meta.getColumnLabel(column) + ":" + meta.getColumnTypeName(column);
            };
        }
    }

    private static String of(Connection c, String sql, ColumnLabel label) {
        try (Statement s = c.createStatement()) {
            return of(s, s.execute(sql), label);
        } catch (SQLException e) {
            return error(e);
        }
    }

    private static String of(Statement s, boolean hasRows, ColumnLabel label) throws SQLException {
        if (!hasRows) {
            return "count " + s.getUpdateCount();
        }
        try (ResultSet rs = s.getResultSet()) {
            ResultSetMetaData meta = rs.getMetaData();
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.add(label.of(meta, i) + "=" + rs.getString(i));
                }
                rows.add(row.toString());
            }
            return rows.toString();
        }
    }

    private static String error(SQLException e) {
        return "ERROR " + e.getSQLState() + ("XX000".equals(e.getSQLState()) ? " " + e.getMessage() : "");
    }

    /**
     * Runs {@code sql} once on {@code s}: {@code count n} for an update count, else the rows, each
     * as its columns' {@code label=value}. Errors are the caller's to render.
     */
    static String labelledRowsOrCount(Statement s, String sql) throws SQLException {
        if (!s.execute(sql)) {
            return "count " + s.getUpdateCount();
        }
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.getResultSet()) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getMetaData().getColumnLabel(i) + "=" + rs.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows.toString();
    }

    /**
     * Rows (with their labels) or update count, executing {@code sql} once; an error with its SQLSTATE,
     * message and, for ALTER statements and NOT NULL and CHECK violations, DETAIL.
     */
    static String withMessage(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            return labelledRowsOrCount(s, sql);
        } catch (org.postgresql.util.PSQLException e) {
            var server = e.getServerErrorMessage();
            // DETAIL is compared for the ALTERs and NOT NULL and CHECK violations ("Failing row contains")
            boolean detail =
                    (sql.startsWith("ALTER") || "23514".equals(e.getSQLState()) || "23502".equals(e.getSQLState()))
                            && server != null
                            && server.getDetail() != null;
            return "ERROR " + e.getSQLState() + " " + (server == null ? e.getMessage() : server.getMessage())
                    + (detail ? " DETAIL " + server.getDetail() : "");
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState() + " " + e.getMessage();
        }
    }
}
