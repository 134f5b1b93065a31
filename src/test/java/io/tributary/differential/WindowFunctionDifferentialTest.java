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
 * Window functions and group top-N in materialized views against PostgreSQL: each view's query runs as is on
 * PostgreSQL after every round of random INSERT, UPDATE and DELETE (NULLs, ties, empty partitions and rows moving
 * between partitions included),
 * and the view must hold the same rows. Then the database is reopened: the views, restored from their committed
 * state, must still match and keep following the table.
 */
class WindowFunctionDifferentialTest {
    private static final long SEED = 20261202L;
    private static final int ROUNDS = 6;
    private static final int KEYS = 50;

    private static final List<String> QUERIES = List.of(
            "SELECT id, k, row_number() OVER (PARTITION BY k ORDER BY v, id) AS rn,"
                    + " rank() OVER (PARTITION BY k ORDER BY v) AS r,"
                    + " dense_rank() OVER (PARTITION BY k ORDER BY v DESC NULLS LAST) AS d FROM ev",
            "SELECT id, lag(v) OVER (PARTITION BY k ORDER BY ts, id) AS prev,"
                    + " lead(v, 2, -1) OVER (PARTITION BY k ORDER BY ts, id) AS next2 FROM ev",
            "SELECT id, first_value(v) OVER w AS f, last_value(v) OVER w AS l, sum(v) OVER w AS s,"
                    + " min(v) OVER w AS mi, max(v) OVER w AS ma, count(v) OVER w AS c FROM ev"
                    + " WINDOW w AS (PARTITION BY k ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING)",
            "SELECT id, sum(v) OVER (PARTITION BY k ORDER BY ts) AS s, count(*) OVER (PARTITION BY k ORDER BY ts) AS c,"
                    + " avg(v) OVER (PARTITION BY k ORDER BY ts) AS a, max(d) OVER (PARTITION BY k ORDER BY ts) AS m"
                    + " FROM ev",
            "SELECT id, k, sum(v) OVER (PARTITION BY k) AS total, avg(d) OVER (PARTITION BY k) AS ad,"
                    + " last_value(id) OVER (PARTITION BY k ORDER BY id RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)"
                    + " AS last_id FROM ev",
            "SELECT id, row_number() OVER (ORDER BY v DESC NULLS FIRST, id) AS rn,"
                    + " sum(v) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING) AS running FROM ev",
            "SELECT id, k, v FROM (SELECT id, k, v, row_number() OVER (PARTITION BY k ORDER BY v DESC, id) AS rn"
                    + " FROM ev) t WHERE rn <= 3",
            "SELECT id, k, v, r FROM (SELECT id, k, v, rank() OVER (PARTITION BY k ORDER BY v) AS r FROM ev) t"
                    + " WHERE r < 3 AND id % 2 = 0",
            "SELECT k, v FROM (SELECT k, v, dense_rank() OVER (PARTITION BY k ORDER BY v DESC) AS dr FROM ev) t"
                    + " WHERE dr = 1");

    private static Connection pg;
    private static Path dataDir;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        dataDir = Files.createTempDirectory("overdiff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg);
        Cleanup.deleteTree(dataDir);
    }

    @Test
    void windowFunctionViewsMatchPostgresAcrossARestart() throws Exception {
        Random r = new Random(SEED);
        String table = "CREATE TABLE ev (id INT PRIMARY KEY, k INT, v INT, d DOUBLE PRECISION, ts TIMESTAMP)";
        InProcessTributary.execScript(pg, table);
        try (InProcessTributary trib = new InProcessTributary(dataDir, 50)) {
            InProcessTributary.execScript(trib.connection, table);
            // half the views start over an empty table, half backfill over rows
            for (int q = 0; q < QUERIES.size(); q += 2) {
                InProcessTributary.execScript(
                        trib.connection, "CREATE MATERIALIZED VIEW w" + q + " AS " + QUERIES.get(q));
            }
            String first = randomDml(r);
            InProcessTributary.execScript(pg, first);
            InProcessTributary.execScript(trib.connection, first);
            for (int q = 1; q < QUERIES.size(); q += 2) {
                InProcessTributary.execScript(
                        trib.connection, "CREATE MATERIALIZED VIEW w" + q + " AS " + QUERIES.get(q));
            }
            compare(trib.connection, "after the first changes");
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
        for (int q = 0; q < QUERIES.size(); q++) {
            ViewResults.Rows expected = ViewResults.read(pg, QUERIES.get(q));
            // AVG divides as the engine's NUMERIC division does, a documented deviation: compared by value
            boolean approx = QUERIES.get(q).contains("avg(");
            String view = ViewResults.difference(expected, ViewResults.read(trib, "SELECT * FROM w" + q), approx);
            assertNull(view, when + ": view w" + q + " (" + QUERIES.get(q) + ")");
        }
    }

    /** Upserts (NULLs and repeated values make ties), deletes and partition moves, as one statement list. */
    private static String randomDml(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            int id = r.nextInt(KEYS);
            sb.append("DELETE FROM ev WHERE id = ").append(id).append(";");
            if (r.nextInt(4) != 0) {
                sb.append("INSERT INTO ev VALUES (")
                        .append(id)
                        .append(", ")
                        .append(r.nextInt(6) == 0 ? "NULL" : Integer.toString(r.nextInt(4)))
                        .append(", ")
                        .append(r.nextInt(8) == 0 ? "NULL" : Integer.toString(r.nextInt(20) - 5))
                        .append(", ")
                        .append(r.nextInt(8) == 0 ? "NULL" : (r.nextInt(16) / 4.0) + "")
                        .append(", ")
                        .append(r.nextInt(8) == 0 ? "NULL" : "TIMESTAMP '2026-01-01 10:00:0" + r.nextInt(6) + "'")
                        .append(");");
            }
        }
        for (int i = 0; i < 5; i++) {
            // one statement moving rows between partitions: retracted by one actor, re-emitted by another
            sb.append("UPDATE ev SET k = ").append(r.nextInt(4)).append(", v = v + 1 WHERE id % 7 = ");
            sb.append(r.nextInt(7)).append(";");
        }
        return sb.toString();
    }
}
