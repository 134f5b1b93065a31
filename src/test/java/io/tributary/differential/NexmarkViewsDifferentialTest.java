package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.tributary.cli.NexmarkQueries;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * RisingWave's Nexmark queries as materialized views over the {@code nexmark} connector's tables, each compared
 * with the same query run by PostgreSQL over a copy of the generated events (TUMBLE becomes {@code date_bin}, HOP
 * {@code date_bin} minus {@code generate_series} slides, SESSION gaps and islands by window functions). The queries that cannot be expressed are listed in
 * {@link NexmarkQueries} and the README with the reason.
 */
class NexmarkViewsDifferentialTest {
    private static final int EVENTS = 10_000;

    /** PostgreSQL's form of {@code HOP(bid, date_time, INTERVAL '2' SECOND, INTERVAL '10' SECOND)}. */
    private static final String PG_HOP_BID = "(SELECT bid.*, date_bin('2 seconds', date_time, TIMESTAMP '1970-01-01')"
            + " - i * INTERVAL '2 seconds' AS window_start FROM bid CROSS JOIN generate_series(0, 4) AS g(i))";

    private static final String PG_TUMBLE_START = "date_bin('10 seconds', date_time, TIMESTAMP '1970-01-01')";

    /** q12's window over the stored processing time, in UTC as Tributary's TUMBLE bounds a TIMESTAMPTZ. */
    private static final String PG_PROCTIME_START =
            "date_bin('10 seconds', p_time AT TIME ZONE 'UTC', TIMESTAMP '1970-01-01')";

    /** PostgreSQL's form of each query that is not the same text, by name (also for the sources' test). */
    static final Map<String, String> POSTGRES = Map.of(
            "q5",
            NexmarkQueries.q5(PG_HOP_BID + " AS bid"),
            "q7",
            "SELECT B.auction, B.price, B.bidder, B.date_time FROM bid B JOIN (SELECT MAX(price) AS maxprice,"
                    + " " + PG_TUMBLE_START + " + INTERVAL '10 seconds' AS date_time FROM bid GROUP BY 2) B1"
                    + " ON B.price = B1.maxprice"
                    + " WHERE B.date_time BETWEEN B1.date_time - INTERVAL '10' SECOND AND B1.date_time",
            "q8",
            "SELECT P.id, P.name, P.starttime FROM (SELECT id, name, " + PG_TUMBLE_START + " AS starttime"
                    + " FROM person GROUP BY 1, 2, 3) P JOIN (SELECT seller, " + PG_TUMBLE_START
                    + " AS starttime FROM auction GROUP BY 1, 2) A ON P.id = A.seller AND P.starttime = A.starttime",
            "q12",
            "SELECT bidder, count(*) AS bid_count, " + PG_PROCTIME_START + " AS window_start, " + PG_PROCTIME_START
                    + " + INTERVAL '10 seconds' AS window_end FROM bid GROUP BY 1, 3, 4",
            "q13",
            "SELECT B.auction, B.bidder, B.price, B.date_time, S.value FROM bid B"
                    + " JOIN side_input S ON mod(B.auction, 10000) = S.key",
            "q11",
            "SELECT bidder, count(*) AS bid_count, min(date_time) AS starttime,"
                    + " max(date_time) + INTERVAL '10 seconds' AS endtime FROM "
                    + pgSessions("bid", "bidder", "date_time", "10 seconds")
                    + " GROUP BY bidder, session");

    /**
     * PostgreSQL's sessions as gaps and islands: {@code relation}'s rows with a time, each with the number
     * ({@code session}) of its session within its partition: a row starts one when no earlier row of the
     * partition is within {@code gap}.
     */
    static String pgSessions(String relation, String partition, String time, String gap) {
        // a constant partition ("0") puts all rows in one
        String order = "OVER (PARTITION BY " + partition + " ORDER BY " + time;
        return "(SELECT *, sum(starts) " + order + " ROWS UNBOUNDED PRECEDING) AS session FROM (SELECT *, CASE WHEN "
                + time + " - lag(" + time + ") " + order + ") <= INTERVAL '" + gap + "' THEN 0 ELSE 1 END AS starts"
                + " FROM " + relation + " WHERE " + time + " IS NOT NULL) marked) sessions";
    }

    /**
     * The columns compared where the query leaves the others to chance: bids of one bidder on one auction may
     * share a time (q18), and bids of one auction a price (q19), so which of them row_number keeps is arbitrary.
     */
    static final Map<String, String> COMPARED =
            Map.of("q18", "auction, bidder, date_time", "q19", "auction, price, rank_number");

    private static PostgresPair pair;
    private static Connection pg;
    private static Connection trib;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("nexmarkdiff-");
        pg = pair.pg;
        trib = pair.tributary.connection;
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void nexmarkViewsMatchPostgres() throws Exception {
        // half the views follow the sources as they generate, half backfill over what they generated
        List<String> names = new ArrayList<>(NexmarkQueries.QUERIES.keySet());
        // q13's side input, the same rows on both sides
        for (List<String> setup : NexmarkQueries.SETUP.values()) {
            for (String statement : setup) {
                exec(trib, statement);
                exec(pg, statement);
            }
        }
        for (String table : NexmarkQueries.TABLES.keySet()) {
            exec(trib, NexmarkQueries.createTable(table, EVENTS, 2));
        }
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < names.size(); i += 2) {
            create(names.get(i), failures);
        }
        // of every 50 events 1 is a person, 3 are auctions and 46 are bids
        awaitRows("person", EVENTS / 50);
        awaitRows("auction", EVENTS / 50 * 3);
        awaitRows("bid", EVENTS / 50 * 46);
        for (int i = 1; i < names.size(); i += 2) {
            create(names.get(i), failures);
        }
        for (Map.Entry<String, String> t : NexmarkQueries.TABLES.entrySet()) {
            copyToPostgres(t.getKey(), t.getValue());
        }
        for (String name : names) {
            if (failures.stream().anyMatch(f -> f.startsWith(name + ":"))) {
                continue;
            }
            String query = NexmarkQueries.QUERIES.get(name);
            String compared = COMPARED.getOrDefault(name, "*");
            // AVG divides as the engine's NUMERIC division does, a documented deviation: compared by value
            boolean approx = query.contains("AVG(") || query.contains("avg(");
            String diff = ViewResults.difference(
                    ViewResults.read(pg, "SELECT " + compared + " FROM (" + POSTGRES.getOrDefault(name, query) + ") x"),
                    ViewResults.read(trib, "SELECT " + compared + " FROM " + name),
                    approx);
            if (diff != null) {
                failures.add(name + ": " + diff);
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
    }

    private static void create(String name, List<String> failures) {
        try {
            exec(trib, "CREATE MATERIALIZED VIEW " + name + " AS " + NexmarkQueries.QUERIES.get(name));
        } catch (SQLException e) {
            failures.add(name + ": CREATE failed: " + e.getSQLState() + " " + e.getMessage());
        }
    }

    private static void awaitRows(String table, long expected) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        long count = -1;
        while (System.nanoTime() < deadline) {
            try (Statement st = trib.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
                rs.next();
                count = rs.getLong(1);
            }
            if (count == expected) {
                return;
            }
            Thread.sleep(100);
        }
        assertEquals(expected, count, "rows generated into " + table);
    }

    /** Copies every row of {@code table} from Tributary into a table of the same columns on PostgreSQL. */
    private static void copyToPostgres(String table, String columns) throws SQLException {
        copyToPostgres(trib, table, pg, table, columns);
    }

    /**
     * Copies every row of relation {@code from} of Tributary connection {@code trib} into a new table {@code table}
     * of {@code columns} on PostgreSQL connection {@code pg}. A processing-time column ({@code AS PROCTIME()}) is
     * an ordinary column there, holding the times Tributary stored.
     */
    static void copyToPostgres(Connection trib, String from, Connection pg, String table, String tributaryColumns)
            throws SQLException {
        String columns = tributaryColumns.replace(" AS PROCTIME()", "");
        exec(pg, "CREATE TABLE " + table + " (" + columns + ")");
        String[] defs = columns.split(",");
        StringBuilder insert = new StringBuilder("INSERT INTO " + table + " VALUES (");
        for (int i = 0; i < defs.length; i++) {
            String type = defs[i].trim().split(" ")[1];
            insert.append(i == 0 ? "" : ", ").append("?::").append(type);
        }
        insert.append(")");
        try (Statement st = trib.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + from);
                PreparedStatement ps = pg.prepareStatement(insert.toString())) {
            int n = 0;
            while (rs.next()) {
                for (int i = 1; i <= defs.length; i++) {
                    ps.setString(i, rs.getString(i));
                }
                ps.addBatch();
                if (++n % 1000 == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
