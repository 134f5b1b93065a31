package io.tributary.crash;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/** Reads what the tables {@code acked} and {@code events} hold, split by writer. */
final class Contents {
    private Contents() {}

    /**
     * @return each writer's rows; writers without rows are absent
     * @throws AssertionError when {@code acked} holds two rows with the same primary key
     */
    static Map<Integer, WriterState> read(Connection c) throws SQLException {
        Map<Integer, WriterState> byWriter = new HashMap<>();
        try (Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT id) FROM acked")) {
                rs.next();
                if (rs.getLong(1) != rs.getLong(2)) {
                    throw new AssertionError(
                            "acked holds " + rs.getLong(1) + " rows but only " + rs.getLong(2) + " distinct ids");
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT id, writer, payload FROM acked")) {
                while (rs.next()) {
                    WriterState s = byWriter.computeIfAbsent(rs.getInt(2), w -> new WriterState());
                    if (s.acked.put(rs.getLong(1), rs.getString(3)) != null) {
                        throw new AssertionError("SELECT returned id " + rs.getLong(1) + " twice");
                    }
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT writer, batch, n FROM events")) {
                while (rs.next()) {
                    byWriter.computeIfAbsent(rs.getInt(1), w -> new WriterState())
                            .addEvent(rs.getLong(2), rs.getInt(3));
                }
            }
        }
        return byWriter;
    }
}
