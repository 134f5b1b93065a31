package io.tributary.meta;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The run the window and session state-cleaning tests share: views over a watermarked table fed
 * {@code rounds} rounds of rows (one INSERT, one epoch, each), their state keys checked against
 * their bounds from the sixth round on and an EMIT ON WINDOW CLOSE view {@code closed} checked to
 * only gain rows; the views compared with PostgreSQL, a restart, the comparison again, another EOWC
 * view {@code closed_later} backfilled, twenty more rounds with the bounds checked in each, and
 * both EOWC views checked to hold exactly the closed windows. Used from the test thread.
 */
final class CleaningRounds {
    private CleaningRounds() {}

    /** What a test running the rounds gives them. */
    interface Workload {
        /** Creates the watermarked table and the views under test, checking their plans. */
        void create(Statement st) throws SQLException;

        /** The INSERT of round {@code round}'s rows, which number {@code rowsPerRound}. */
        String insert(int round);

        /** Checks the views against PostgreSQL, {@code inserted} rows having been inserted. */
        void compare(Statement st, long inserted, String when) throws SQLException;
    }

    /**
     * Runs the rounds on a database served from {@code dir} (see the class comment), {@code eowc}
     * being the EOWC views' query.
     */
    static void run(
            Path dir,
            int rounds,
            int rowsPerRound,
            String eowc,
            StateKeyBounds bounds,
            ClosedWindowsCheck closed,
            Workload workload)
            throws Exception {
        long inserted = 0;
        ServedDatabase served = ServedDatabase.open(dir, 20);
        try (Connection c = served.connect();
                Statement st = c.createStatement()) {
            workload.create(st);
            st.execute("CREATE MATERIALIZED VIEW closed AS " + eowc);
            for (int round = 0; round < rounds; round++) {
                st.execute(workload.insert(round));
                inserted += rowsPerRound;
                if (round >= 5) {
                    bounds.check(served, "round " + round);
                }
                closed.checkOnlyGains(st, "closed", "round " + round);
            }
            workload.compare(st, inserted, "after " + rounds + " rounds");
            closed.checkHoldsClosed(st, "closed", "after " + rounds + " rounds");
        }
        served.close();
        served = ServedDatabase.open(dir, 20);
        try (Connection c = served.connect();
                Statement st = c.createStatement()) {
            workload.compare(st, inserted, "after a restart");
            st.execute("CREATE MATERIALIZED VIEW closed_later AS " + eowc);
            for (int round = rounds; round < rounds + 20; round++) {
                st.execute(workload.insert(round));
                inserted += rowsPerRound;
                bounds.check(served, "round " + round + " after the restart");
            }
            workload.compare(st, inserted, "after the restart and more rounds");
            closed.checkHoldsClosed(st, "closed", "after the restart and more rounds");
            closed.checkHoldsClosed(st, "closed_later", "backfilled, after the restart and more rounds");
        }
        served.close();
    }
}
