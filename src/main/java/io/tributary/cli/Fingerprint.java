package io.tributary.cli;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A view's fingerprint: one row of aggregates over it (count, sums), equal on two targets when
 * their views hold the same rows.
 */
final class Fingerprint {
    private Fingerprint() {}

    /**
     * Runs {@code sql}, which returns one row of numbers, and returns that row with the numbers
     * stripped of trailing zeros, so that values equal on both targets compare equal.
     */
    static List<BigDecimal> read(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            List<BigDecimal> values = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                BigDecimal v = rs.getBigDecimal(i);
                values.add(v == null ? null : v.stripTrailingZeros());
            }
            return values;
        }
    }
}
