package io.tributary.differential;

import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of a query as a multiset of their text forms ({@code ResultSet.getString}), and the difference of two
 * such multisets. Used by {@link ViewDifferentialTest} to compare a view on Tributary with its query on PostgreSQL.
 */
final class ViewResults {
    private static final int SHOWN_ROWS = 5;
    /** Significant digits approximate NUMERIC values are compared at (AVG results differ beyond the 16th). */
    private static final MathContext APPROX = new MathContext(12);

    private ViewResults() {}

    /** A query's rows, or the error it failed with. {@code numeric[i]} tells whether column i is NUMERIC. */
    record Rows(List<List<String>> rows, boolean[] numeric, String error) {}

    static Rows read(Connection c, String sql) {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            boolean[] numeric = new boolean[n];
            for (int i = 0; i < n; i++) {
                int type = md.getColumnType(i + 1);
                numeric[i] = type == Types.NUMERIC || type == Types.DECIMAL;
            }
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
            return new Rows(rows, numeric, null);
        } catch (SQLException e) {
            return new Rows(null, null, "[" + e.getSQLState() + "] " + e.getMessage());
        }
    }

    /**
     * Null when {@code actual} holds the same rows as {@code expected} in any order, otherwise a description of
     * the difference. With {@code approxNumeric}, values of columns that are NUMERIC in {@code expected} compare at
     * 12 significant digits.
     */
    static String difference(Rows expected, Rows actual, boolean approxNumeric) {
        if (expected.error != null || actual.error != null) {
            return "postgresql: "
                    + (expected.error != null ? "ERROR " + expected.error : expected.rows.size() + " rows")
                    + ", tributary: " + (actual.error != null ? "ERROR " + actual.error : actual.rows.size() + " rows");
        }
        if (expected.numeric.length != actual.numeric.length) {
            return "column count: postgresql " + expected.numeric.length + ", tributary " + actual.numeric.length;
        }
        boolean[] approx = approxNumeric ? expected.numeric : new boolean[expected.numeric.length];
        Map<List<String>, Integer> balance = new HashMap<>();
        for (List<String> row : expected.rows) {
            balance.merge(normalize(row, approx), 1, Integer::sum);
        }
        for (List<String> row : actual.rows) {
            balance.merge(normalize(row, approx), -1, Integer::sum);
        }
        List<String> missing = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        balance.forEach((row, count) -> {
            for (int i = 0; i < Math.abs(count); i++) {
                (count > 0 ? missing : extra).add(row.toString());
            }
        });
        if (missing.isEmpty() && extra.isEmpty()) {
            return null;
        }
        missing.sort(null);
        extra.sort(null);
        return "rows: postgresql " + expected.rows.size() + ", tributary " + actual.rows.size()
                + "\n    missing in tributary (" + missing.size() + "): " + preview(missing)
                + "\n    extra in tributary (" + extra.size() + "): " + preview(extra);
    }

    private static List<String> normalize(List<String> row, boolean[] approx) {
        List<String> out = new ArrayList<>(row.size());
        for (int i = 0; i < row.size(); i++) {
            String v = row.get(i);
            out.add(
                    v != null && approx[i]
                            ? new BigDecimal(v)
                                    .round(APPROX)
                                    .stripTrailingZeros()
                                    .toPlainString()
                            : v);
        }
        return out;
    }

    private static String preview(List<String> rows) {
        return rows.isEmpty()
                ? "(none)"
                : String.join(" ", rows.subList(0, Math.min(SHOWN_ROWS, rows.size())))
                        + (rows.size() > SHOWN_ROWS ? " ..." : "");
    }
}
