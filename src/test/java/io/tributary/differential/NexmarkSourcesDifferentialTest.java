package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.tributary.cli.NexmarkQueries;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nexmark queries as materialized views over the {@code nexmark} connector's sources (CREATE SOURCE: nothing
 * stored), each compared with the same query run by PostgreSQL over the events the views received. The sources
 * are paused while the views are created, so every view starts at the same positions; views of {@code SELECT *}
 * over each source capture those events, which are copied to PostgreSQL. Each capture holds exactly as many
 * events as the generator made after the paused positions (none lost, none twice). Then what a source refuses:
 * SELECT (0A000), DML and DROP TABLE (42809), DROP SOURCE while views read it (2BP01).
 */
class NexmarkSourcesDifferentialTest {
    private static final int EVENTS = 10_000;
    private static final List<String> QUERIES =
            List.of("q0", "q1", "q2", "q3", "q4", "q5", "q7", "q8", "q11", "q12", "q13");
    /** Of every 50 events 1 is a person, 3 are auctions and 46 are bids. */
    private static final Map<String, Integer> PER_50 = Map.of("person", 1, "auction", 3, "bid", 46);

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("nexmarksrcdiff-");

    @Test
    void viewsOverSourcesMatchPostgresOverTheEventsTheyGot() throws Exception {
        // q13's side input, the same rows on both sides
        for (List<String> setup : NexmarkQueries.SETUP.values()) {
            for (String statement : setup) {
                exec(statement);
                try (Statement st = databases.pg().createStatement()) {
                    st.execute(statement);
                }
            }
        }
        for (String source : NexmarkQueries.TABLES.keySet()) {
            exec(NexmarkQueries.createSource(source, EVENTS, 2));
            exec("ALTER SOURCE " + source + " SET SOURCE_RATE_LIMIT = 0");
        }
        Map<String, Long> paused = stablePositions();
        for (String source : NexmarkQueries.TABLES.keySet()) {
            exec("CREATE MATERIALIZED VIEW " + source + "_events AS SELECT * FROM " + source);
        }
        for (String name : QUERIES) {
            exec("CREATE MATERIALIZED VIEW " + name + " AS " + NexmarkQueries.QUERIES.get(name));
        }
        for (String source : NexmarkQueries.TABLES.keySet()) {
            exec("ALTER SOURCE " + source + " SET SOURCE_RATE_LIMIT = DEFAULT");
        }
        for (Map.Entry<String, String> t : NexmarkQueries.TABLES.entrySet()) {
            long generated = (long) EVENTS / 50 * PER_50.get(t.getKey());
            awaitCount(t.getKey() + "_events", generated - paused.get(t.getKey()));
            NexmarkViewsDifferentialTest.copyToPostgres(
                    databases.trib(), t.getKey() + "_events", databases.pg(), t.getKey(), t.getValue());
        }
        List<String> failures = new ArrayList<>();
        for (String name : QUERIES) {
            String query = NexmarkQueries.QUERIES.get(name);
            String compared = NexmarkViewsDifferentialTest.COMPARED.getOrDefault(name, "*");
            boolean approx = query.contains("AVG(") || query.contains("avg(");
            String pgQuery = NexmarkViewsDifferentialTest.POSTGRES.getOrDefault(name, query);
            String diff = ViewResults.difference(
                    ViewResults.read(databases.pg(), "SELECT " + compared + " FROM (" + pgQuery + ") x"),
                    ViewResults.read(databases.trib(), "SELECT " + compared + " FROM " + name),
                    approx);
            if (diff != null) {
                failures.add(name + ": " + diff);
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        refusals();
    }

    /** What a source refuses, and DROP SOURCE once nothing reads it. */
    private static void refusals() throws SQLException {
        assertEquals("0A000", state("SELECT * FROM bid"));
        assertEquals("0A000", state("SELECT count(*) FROM bid"));
        assertEquals("42809", state("INSERT INTO bid (auction) VALUES (1)"));
        assertEquals("42809", state("DROP TABLE bid"));
        assertEquals("2BP01", state("DROP SOURCE bid"));
        assertEquals(List.of("auction", "bid", "person"), names("SHOW SOURCES"));
        assertEquals(
                List.of("auction", "bid", "person"),
                names("SELECT relname FROM pg_class WHERE relname IN ('auction', 'bid', 'person') AND relkind = 'r'"));
        for (String name : QUERIES) {
            exec("DROP MATERIALIZED VIEW " + name);
        }
        exec("DROP MATERIALIZED VIEW bid_events");
        exec("DROP SOURCE bid");
        assertEquals(List.of("auction", "person"), names("SHOW SOURCES"));
        assertEquals("42P01", state("SELECT * FROM bid"));
    }

    /**
     * The committed positions (rows ingested) of each paused source, once two reads a second apart agree (a
     * batch read before the pause may still commit).
     */
    private static Map<String, Long> stablePositions() throws Exception {
        String sql = "SELECT table_name, sum(rows_ingested) FROM tributary_catalog.source_progress GROUP BY 1";
        Map<String, Long> last = Map.of();
        for (int i = 0; i < 60; i++) {
            Map<String, Long> now = new java.util.TreeMap<>();
            try (Statement st = databases.trib().createStatement();
                    ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    now.put(rs.getString(1), rs.getLong(2));
                }
            }
            if (now.equals(last) && now.size() == 3) {
                return now;
            }
            last = now;
            Thread.sleep(1000);
        }
        throw new AssertionError("the paused sources' positions did not settle: " + last);
    }

    private static void awaitCount(String view, long expected) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        long count = -1;
        while (System.nanoTime() < deadline && count != expected) {
            try (Statement st = databases.trib().createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM " + view)) {
                rs.next();
                count = rs.getLong(1);
            }
            Thread.sleep(count == expected ? 0 : 100);
        }
        // a moment more: an event past the expected count would show as a second one
        Thread.sleep(500);
        try (Statement st = databases.trib().createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + view)) {
            rs.next();
            count = rs.getLong(1);
        }
        assertEquals(expected, count, "events the view over the source got after its creation: " + view);
    }

    private static List<String> names(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = databases.trib().createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        out.sort(null);
        return out;
    }

    private static String state(String sql) {
        return assertThrows(SQLException.class, () -> exec(sql), sql).getSQLState();
    }

    private static void exec(String sql) throws SQLException {
        try (Statement st = databases.trib().createStatement()) {
            st.execute(sql);
        }
    }
}
