package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TUMBLE and HOP against PostgreSQL: views grouping by {@code window_start} (and an ungrouped HOP) and the same
 * queries run ad hoc on Tributary must both hold the rows PostgreSQL computes with {@code date_bin} (TUMBLE) and
 * {@code date_bin} minus 0..k-1 slides from {@code generate_series} (HOP), after every round of random INSERT,
 * UPDATE and DELETE (NULL times and times before 1970 included). Then the database is closed and reopened: the
 * views, planned again from their SQL, must still hold the same rows and keep following the table.
 */
class TimeWindowDifferentialTest {
    private static final long SEED = 20261201L;
    private static final int ROUNDS = 5;
    private static final int KEYS = 60;

    /** Each case: Tributary's query, PostgreSQL's equivalent. */
    private static final List<String[]> CASES = List.of(
            new String[] {
                "SELECT window_start, window_end, count(*) AS c, sum(v) AS s"
                        + " FROM TUMBLE(ev, ts, INTERVAL '10' SECOND) GROUP BY window_start, window_end",
                "SELECT date_bin('10 seconds', ts, TIMESTAMP '1970-01-01') AS window_start,"
                        + " date_bin('10 seconds', ts, TIMESTAMP '1970-01-01') + INTERVAL '10 seconds' AS window_end,"
                        + " count(*) AS c, sum(v) AS s FROM ev WHERE ts IS NOT NULL GROUP BY 1, 2"
            },
            new String[] {
                "SELECT k, window_start, max(v) AS m"
                        + " FROM TUMBLE(ev, ts, INTERVAL '1' MINUTE, INTERVAL '7' SECOND) GROUP BY k, window_start",
                "SELECT k, date_bin('1 minute', ts, TIMESTAMP '1970-01-01 00:00:07') AS window_start, max(v) AS m"
                        + " FROM ev WHERE ts IS NOT NULL GROUP BY 1, 2"
            },
            new String[] {
                "SELECT window_start, count(*) AS c, min(v) AS m"
                        + " FROM HOP(ev, ts, INTERVAL '5' SECOND, INTERVAL '15' SECOND) GROUP BY window_start",
                "SELECT date_bin('5 seconds', ts, TIMESTAMP '1970-01-01') - i * INTERVAL '5 seconds' AS window_start,"
                        + " count(*) AS c, min(v) AS m FROM ev CROSS JOIN generate_series(0, 2) AS g(i)"
                        + " WHERE ts IS NOT NULL GROUP BY 1"
            },
            new String[] {
                "SELECT id, window_start, window_end FROM HOP(ev, ts, INTERVAL '2' SECOND, INTERVAL '4' SECOND)",
                "SELECT id, date_bin('2 seconds', ts, TIMESTAMP '1970-01-01') - i * INTERVAL '2 seconds',"
                        + " date_bin('2 seconds', ts, TIMESTAMP '1970-01-01') - i * INTERVAL '2 seconds'"
                        + " + INTERVAL '4 seconds' FROM ev CROSS JOIN generate_series(0, 1) AS g(i)"
                        + " WHERE ts IS NOT NULL"
            });

    private static Connection pg;
    private static Path dataDir;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        dataDir = Files.createTempDirectory("windowdiff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg);
        Cleanup.deleteTree(dataDir);
    }

    @Test
    void windowViewsAndQueriesMatchPostgresAcrossARestart() throws Exception {
        Random r = new Random(SEED);
        String table = "CREATE TABLE ev (id INT PRIMARY KEY, k INT, v INT, ts TIMESTAMP)";
        InProcessTributary.execScript(pg, table);
        try (InProcessTributary trib = new InProcessTributary(dataDir, 50)) {
            InProcessTributary.execScript(trib.connection, table);
            for (int c = 0; c < CASES.size(); c++) {
                InProcessTributary.execScript(
                        trib.connection, "CREATE MATERIALIZED VIEW w" + c + " AS " + CASES.get(c)[0]);
            }
            for (int round = 0; round < ROUNDS; round++) {
                String dml = randomDml(r);
                InProcessTributary.execScript(pg, dml);
                InProcessTributary.execScript(trib.connection, dml);
                compare(trib.connection, "round " + round);
            }
        }
        try (InProcessTributary trib = new InProcessTributary(dataDir, 50)) {
            compare(trib.connection, "after restart");
            String dml = randomDml(r);
            InProcessTributary.execScript(pg, dml);
            InProcessTributary.execScript(trib.connection, dml);
            compare(trib.connection, "after restart and more changes");
        }
    }

    private static void compare(Connection trib, String when) {
        for (int c = 0; c < CASES.size(); c++) {
            ViewResults.Rows expected = ViewResults.read(pg, CASES.get(c)[1]);
            String view = ViewResults.difference(expected, ViewResults.read(trib, "SELECT * FROM w" + c), false);
            assertNull(view, when + ": view w" + c + " (" + CASES.get(c)[0] + ")");
            String adHoc = ViewResults.difference(expected, ViewResults.read(trib, CASES.get(c)[0]), false);
            assertNull(adHoc, when + ": query " + CASES.get(c)[0]);
        }
    }

    /** One transaction's worth of upserts (some with NULL or pre-1970 times) and deletes, as one statement list. */
    private static String randomDml(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 25; i++) {
            int id = r.nextInt(KEYS);
            sb.append("DELETE FROM ev WHERE id = ").append(id).append(";");
            if (r.nextInt(4) != 0) {
                sb.append("INSERT INTO ev VALUES (")
                        .append(id)
                        .append(", ")
                        .append(r.nextInt(3))
                        .append(", ")
                        .append(r.nextInt(1000) - 300)
                        .append(", ")
                        .append(randomTime(r))
                        .append(");");
            }
        }
        return sb.toString();
    }

    private static String randomTime(Random r) {
        int pick = r.nextInt(10);
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
