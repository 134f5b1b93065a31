package io.tributary.differential;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A query's rows as sorted {@code a|b|c} strings, so two servers' answers compare as multisets
 * whatever order each returns them in. Called from a test's thread.
 */
final class SortedRows {
    private SortedRows() {}

    /** The rows of {@code sql} on {@code c}, sorted. */
    static List<String> of(Connection c, String sql) throws SQLException {
        return read(c, sql, false);
    }

    /** The column labels as {@code a|b|c}, then the rows, sorted. */
    static List<String> withLabels(Connection c, String sql) throws SQLException {
        return read(c, sql, true);
    }

    private static List<String> read(Connection c, String sql, boolean labels) throws SQLException {
        List<String> out = new ArrayList<>();
        String header;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            int n = meta.getColumnCount();
            StringBuilder l = new StringBuilder();
            for (int k = 1; k <= n; k++) {
                l.append(k > 1 ? "|" : "").append(meta.getColumnLabel(k));
            }
            header = l.toString();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int k = 1; k <= n; k++) {
                    b.append(k > 1 ? "|" : "").append(rs.getString(k));
                }
                out.add(b.toString());
            }
        }
        out.sort(null);
        if (labels) {
            out.add(0, header);
        }
        return out;
    }
}
