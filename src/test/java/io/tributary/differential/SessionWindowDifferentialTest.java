package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SESSION windows against PostgreSQL's gaps and islands ({@link NexmarkViewsDifferentialTest#pgSessions}): views
 * over sessions (grouped per session, and the ungrouped rows with their bounds; the table-function forms and Flink's
 * group-window form) and the same queries run ad hoc
 * must hold the rows PostgreSQL computes, after every round of random INSERT, DELETE and UPDATE (times moved by a
 * few seconds and rows moved between partitions, so sessions merge and split; NULL times, NULL partitions and
 * times before 1970 included). Half the views exist from the start, half are created (backfilled) after the first
 * rounds. Then the database is closed and reopened: the views must still hold the same rows and keep following.
 */
class SessionWindowDifferentialTest {
    private static final long SEED = 20261203L;
    private static final int ROUNDS = 8;
    private static final int KEYS = 80;

    /** Each case: Tributary's query, PostgreSQL's equivalent. */
    private static final List<String[]> CASES = List.of(
            new String[] {
                "SELECT k, window_start, window_end, count(*) AS c, sum(v) AS s"
                        + " FROM SESSION(ev PARTITION BY k, ts, INTERVAL '10' SECOND) GROUP BY k, window_start, window_end",
                "SELECT k, min(ts) AS window_start, max(ts) + INTERVAL '10 seconds' AS window_end, count(*) AS c,"
                        + " sum(v) AS s FROM " + NexmarkViewsDifferentialTest.pgSessions("ev", "k", "ts", "10 seconds")
                        + " GROUP BY k, session"
            },
            new String[] {
                "SELECT id, window_start, window_end FROM SESSION(ev, ts, INTERVAL '4' SECOND)",
                "SELECT id, min(ts) OVER (PARTITION BY session) AS window_start,"
                        + " max(ts) OVER (PARTITION BY session) + INTERVAL '4 seconds' AS window_end FROM "
                        + NexmarkViewsDifferentialTest.pgSessions("ev", "0", "ts", "4 seconds")
            },
            new String[] {
                "SELECT k, g, window_end, max(v) AS m"
                        + " FROM SESSION(ev PARTITION BY (k, g), ts, INTERVAL '20' SECOND) AS s"
                        + " GROUP BY k, g, window_end",
                "SELECT k, g, max(ts) + INTERVAL '20 seconds' AS window_end, max(v) AS m FROM "
                        + NexmarkViewsDifferentialTest.pgSessions("ev", "k, g", "ts", "20 seconds")
                        + " GROUP BY k, g, session"
            },
            new String[] {
                "SELECT e.k, count(*) AS c, SESSION_START(e.ts, INTERVAL '3' SECOND) AS st,"
                        + " SESSION_END(e.ts, INTERVAL '3' SECOND) AS en FROM ev AS e"
                        + " GROUP BY e.k, SESSION(e.ts, INTERVAL '3' SECOND) HAVING count(*) > 1",
                "SELECT k, count(*) AS c, min(ts) AS st, max(ts) + INTERVAL '3 seconds' AS en FROM "
                        + NexmarkViewsDifferentialTest.pgSessions("ev", "k", "ts", "3 seconds")
                        + " GROUP BY k, session HAVING count(*) > 1"
            },
            new String[] {
                "SELECT count(*) AS sessions, sum(n) AS rows_in_sessions FROM (SELECT window_start, count(*) AS n"
                        + " FROM TABLE(SESSION(TABLE ev, DESCRIPTOR(ts), DESCRIPTOR(k), INTERVAL '6' SECOND))"
                        + " GROUP BY k, window_start) x",
                "SELECT count(*) AS sessions, sum(n) AS rows_in_sessions FROM (SELECT count(*) AS n FROM "
                        + NexmarkViewsDifferentialTest.pgSessions("ev", "k", "ts", "6 seconds")
                        + " GROUP BY k, session) x"
            });

    private static Connection pg;
    private static Path dataDir;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        dataDir = Files.createTempDirectory("sessiondiff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg);
        Cleanup.deleteTree(dataDir);
    }

    @Test
    void sessionViewsAndQueriesMatchPostgresAcrossARestart() throws Exception {
        Random r = new Random(SEED);
        String table = "CREATE TABLE ev (id INT PRIMARY KEY, k INT, g INT, v INT, ts TIMESTAMP)";
        InProcessTributary.execScript(pg, table);
        List<Integer> created = new ArrayList<>();
        try (InProcessTributary trib = new InProcessTributary(dataDir, 50)) {
            InProcessTributary.execScript(trib.connection, table);
            for (int c = 0; c < CASES.size(); c += 2) {
                createView(trib.connection, c, created);
            }
            for (int round = 0; round < ROUNDS; round++) {
                if (round == 2) {
                    for (int c = 1; c < CASES.size(); c += 2) {
                        createView(trib.connection, c, created);
                    }
                }
                String dml = round < 2 ? inserts(r) : randomDml(r);
                InProcessTributary.execScript(pg, dml);
                InProcessTributary.execScript(trib.connection, dml);
                compare(trib.connection, created, "round " + round);
            }
        }
        try (InProcessTributary trib = new InProcessTributary(dataDir, 50)) {
            compare(trib.connection, created, "after restart");
            String dml = randomDml(r);
            InProcessTributary.execScript(pg, dml);
            InProcessTributary.execScript(trib.connection, dml);
            compare(trib.connection, created, "after restart and more changes");
        }
    }

    private static void createView(Connection trib, int c, List<Integer> created) throws Exception {
        InProcessTributary.execScript(trib, "CREATE MATERIALIZED VIEW s" + c + " AS " + CASES.get(c)[0]);
        created.add(c);
    }

    private static void compare(Connection trib, List<Integer> views, String when) {
        for (int c = 0; c < CASES.size(); c++) {
            ViewResults.Rows expected = ViewResults.read(pg, CASES.get(c)[1]);
            if (views.contains(c)) {
                String view = ViewResults.difference(expected, ViewResults.read(trib, "SELECT * FROM s" + c), false);
                assertNull(view, when + ": view s" + c + " (" + CASES.get(c)[0] + ")");
            }
            String adHoc = ViewResults.difference(expected, ViewResults.read(trib, CASES.get(c)[0]), false);
            assertNull(adHoc, when + ": query " + CASES.get(c)[0]);
        }
    }

    /** New rows only: the first rounds fill the table. */
    private static String inserts(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            int id = r.nextInt(KEYS);
            sb.append("DELETE FROM ev WHERE id = ").append(id).append(";");
            sb.append(insert(r, id));
        }
        return sb.toString();
    }

    /**
     * Deletes, upserts and updates: times shifted by a few seconds join or leave their neighbours' sessions,
     * partition changes move rows between partitions' sessions.
     */
    private static String randomDml(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            int id = r.nextInt(KEYS);
            switch (r.nextInt(4)) {
                case 0 -> sb.append("DELETE FROM ev WHERE id = ").append(id).append(";");
                case 1 ->
                    sb.append("DELETE FROM ev WHERE id = ")
                            .append(id)
                            .append(";")
                            .append(insert(r, id));
                case 2 ->
                    sb.append("UPDATE ev SET ts = ts + INTERVAL '")
                            .append(r.nextInt(15) - 7)
                            .append(" seconds' WHERE id = ")
                            .append(id)
                            .append(";");
                default ->
                    sb.append("UPDATE ev SET k = ")
                            .append(partition(r))
                            .append(" WHERE id = ")
                            .append(id)
                            .append(";");
            }
        }
        return sb.toString();
    }

    private static String insert(Random r, int id) {
        return "INSERT INTO ev VALUES (" + id + ", " + partition(r) + ", " + r.nextInt(2) + ", "
                + (r.nextInt(1000) - 300) + ", " + randomTime(r) + ");";
    }

    private static String partition(Random r) {
        int k = r.nextInt(5);
        return k == 4 ? "NULL" : Integer.toString(k);
    }

    private static String randomTime(Random r) {
        int pick = r.nextInt(12);
        if (pick == 0) {
            return "NULL";
        }
        String day = pick == 1 ? "1969-12-31 23:59:" : "2026-01-01 10:0";
        int seconds = r.nextInt(pick == 1 ? 60 : 300);
        String time = pick == 1 ? day + two(seconds) : day + (seconds / 60) + ":" + two(seconds % 60);
        return "TIMESTAMP '" + time + "'";
    }

    private static String two(int n) {
        return n < 10 ? "0" + n : Integer.toString(n);
    }
}
