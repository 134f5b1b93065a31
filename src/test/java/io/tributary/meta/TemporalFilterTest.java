package io.tributary.meta;

import static io.tributary.meta.ServedDatabase.rows;
import static io.tributary.meta.ServedDatabase.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.Epoch;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Temporal filters against PostgreSQL: rows with times a few seconds around the wall clock are
 * inserted, updated and deleted while the epochs move on; at a committed epoch, each view holds
 * exactly PostgreSQL's rows for the same query over the same table with {@code now()} replaced by
 * the epoch's time. Rows leave (and enter) the views with no input as time passes, also after a
 * restart and in a view created over existing rows; once every row is older than the lower
 * bounds, the filters' state holds nothing but their clock.
 */
class TemporalFilterTest {
    private static final long SEED = 20261216L;
    private static final int ROUNDS = 30;
    private static final int ROWS_PER_ROUND = 20;
    /** Row times are within this many milliseconds of the wall clock, either side. */
    private static final int SPREAD_MS = 3_000;

    /** Each case: the view's name, its query, PostgreSQL's query with {@code %1$s} for now(). */
    private static final List<String[]> VIEWS = List.of(
            new String[] {
                "recent",
                "SELECT id, k, ts FROM ev WHERE ts > now() - INTERVAL '2' SECOND",
                "SELECT id, k, ts FROM ev WHERE ts > TIMESTAMP '%1$s' - INTERVAL '2 seconds'"
            },
            new String[] {
                "due",
                "SELECT id, ts FROM ev WHERE ts <= now() + INTERVAL '1' SECOND AND k < 3",
                "SELECT id, ts FROM ev WHERE ts <= TIMESTAMP '%1$s' + INTERVAL '1 second' AND k < 3"
            },
            new String[] {
                "between",
                "SELECT id FROM ev WHERE ts BETWEEN now() - INTERVAL '3' SECOND AND now() - INTERVAL '1' SECOND",
                "SELECT id FROM ev WHERE ts BETWEEN TIMESTAMP '%1$s' - INTERVAL '3 seconds'"
                        + " AND TIMESTAMP '%1$s' - INTERVAL '1 second'"
            },
            new String[] {
                "counts",
                "SELECT k, count(*) AS c FROM ev WHERE now() - INTERVAL '2' SECOND < ts GROUP BY k",
                "SELECT k, count(*) AS c FROM ev WHERE TIMESTAMP '%1$s' - INTERVAL '2 seconds' < ts GROUP BY k"
            });

    @RegisterExtension
    static final PostgresOracle postgres = new PostgresOracle();

    @TempDir
    static Path dir;

    private ServedDatabase served;
    private int comparisons;

    @Test
    void viewsEqualPostgresAtTheEpochsTimeAndForgetExpiredRows() throws Exception {
        Random r = new Random(SEED);
        postgres.execute("CREATE TABLE ev (id INT PRIMARY KEY, k INT, ts TIMESTAMP)");
        int nextId = 0;
        served = ServedDatabase.open(dir, 100);
        try (Connection c = served.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ev (id INT PRIMARY KEY, k INT, ts TIMESTAMP)");
            for (String[] view : VIEWS) {
                st.execute("CREATE MATERIALIZED VIEW " + view[0] + " AS " + view[1]);
            }
            for (int round = 0; round < ROUNDS; round++) {
                nextId = change(st, r, nextId);
                Thread.sleep(50);
                if (round % 5 == 4) {
                    compare(st, "round " + round);
                }
            }
            // no more input: rows keep leaving and entering as the epochs pass
            for (int i = 0; i < 5; i++) {
                Thread.sleep(400);
                compare(st, "idle " + i);
            }
        }
        served.close();
        served = ServedDatabase.open(dir, 100);
        try (Connection c = served.connect();
                Statement st = c.createStatement()) {
            compare(st, "after a restart");
            st.execute("CREATE MATERIALIZED VIEW recent_later AS " + VIEWS.get(0)[1]);
            for (int round = 0; round < 10; round++) {
                nextId = change(st, r, nextId);
                Thread.sleep(50);
            }
            compare(st, "after the restart and more rounds");
            assertSameAtOneEpoch(st, "recent", "recent_later", "a view created over existing rows");
            // every row's time passes the lower bounds: the state keeps only the clock
            Thread.sleep(SPREAD_MS + 3_000);
            compare(st, "once every row is old");
            for (String view : List.of("recent", "between", "recent_later")) {
                assertEquals(1, served.stateKeys(view), view + " forgets rows below its bound");
            }
            assertEquals(1, served.stateKeys("due"), "due forgets rows once they are visible for good");
            assertTrue(scalar(st, "SELECT count(*) FROM ev") > 400, "rows were kept");
        }
        served.close();
        assertTrue(comparisons >= 8, comparisons + " comparisons at an epoch");
    }

    /** One round: inserts, and updates or deletes some earlier rows; returns the next free id. */
    private static int change(Statement st, Random r, int nextId) throws SQLException {
        StringJoiner rows = new StringJoiner(", ", "INSERT INTO ev VALUES ", "");
        for (int i = 0; i < ROWS_PER_ROUND; i++) {
            rows.add("(" + nextId++ + ", " + r.nextInt(5) + ", " + timestamp(r) + ")");
        }
        st.execute(rows.toString());
        if (nextId > 50) {
            st.execute("UPDATE ev SET ts = " + timestamp(r) + ", k = " + r.nextInt(5) + " WHERE id = "
                    + r.nextInt(nextId));
            st.execute("DELETE FROM ev WHERE id = " + r.nextInt(nextId));
        }
        return nextId;
    }

    private static String timestamp(Random r) {
        LocalDateTime ts =
                LocalDateTime.now(ZoneOffset.UTC).plusNanos((r.nextInt(2 * SPREAD_MS) - SPREAD_MS) * 1_000_000L);
        return "TIMESTAMP '" + ts.toString().replace('T', ' ') + "'";
    }

    /**
     * Reads the table and every view at one committed epoch (retrying until no epoch committed
     * while reading), then compares each view with PostgreSQL's query at the epoch's time.
     */
    /**
     * Asserts that views {@code a} and {@code b} hold the same rows at one epoch: each read sees the
     * last committed epoch, and a temporal filter's rows change with every epoch, so reads that an
     * epoch's commit falls between are taken again.
     */
    private void assertSameAtOneEpoch(Statement st, String a, String b, String message) throws SQLException {
        for (int attempt = 0; attempt < 50; attempt++) {
            long epoch = served.db().barriers().committedEpoch();
            List<String> first = rows(st, "SELECT * FROM " + a);
            List<String> second = rows(st, "SELECT * FROM " + b);
            if (served.db().barriers().committedEpoch() == epoch) {
                assertEquals(first, second, message);
                return;
            }
        }
        throw new AssertionError(message + ": an epoch committed during every read");
    }

    private void compare(Statement st, String when) throws SQLException {
        for (int attempt = 0; attempt < 50; attempt++) {
            long epoch = served.db().barriers().committedEpoch();
            List<String> table = rows(st, "SELECT id, k, ts FROM ev");
            List<List<String>> views = new ArrayList<>();
            for (String[] view : VIEWS) {
                views.add(rows(st, "SELECT * FROM " + view[0]));
            }
            if (served.db().barriers().committedEpoch() != epoch) {
                continue;
            }
            String at = LocalDateTime.ofInstant(Instant.ofEpochMilli(Epoch.millis(epoch)), ZoneOffset.UTC)
                    .toString()
                    .replace('T', ' ');
            postgres.replaceRows("ev", table);
            for (int i = 0; i < VIEWS.size(); i++) {
                String[] view = VIEWS.get(i);
                assertEquals(
                        postgres.rows(view[2].formatted(at)),
                        views.get(i),
                        when + ": " + view[0] + " at epoch time " + at);
            }
            comparisons++;
            return;
        }
        throw new AssertionError(when + ": an epoch committed during every read");
    }
}
