package io.tributary.crash;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/** Queries the crash tests compare results with, on Tributary and PostgreSQL alike. */
final class Sql {
    private Sql() {}

    /** The first column of the first row as a long (0 for NULL). */
    static long scalar(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Every row as {@code a | b | c} ({@code null} for NULL), in the order the query returns them. */
    static List<String> orderedRows(Statement st, String sql) throws SQLException {
        return rows(st, sql, " | ");
    }

    /** Every row as {@code a|b|c} ({@code null} for NULL), sorted, so that results compare in any order. */
    static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = rows(st, sql, "|");
        out.sort(null);
        return out;
    }

    private static List<String> rows(Statement st, String sql, String separator) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringJoiner row = new StringJoiner(separator);
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }
}
