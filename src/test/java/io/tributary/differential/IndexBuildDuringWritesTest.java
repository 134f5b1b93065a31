package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code CREATE [UNIQUE] INDEX} over a table that a second session keeps changing meanwhile
 * (UPDATEs moving emails, DELETEs, INSERTs): the writer must not wait for the build, and the index
 * must hold exactly the rows' entries as of its commit, which is checked against PostgreSQL. The
 * writer's changes are run on PostgreSQL too (in the same order, none of them a duplicate, so the
 * final tables are equal whichever way the two builds interleave them), then the same probes run
 * on both: inserting each changed row's old and new email again (a stale entry would refuse an
 * email no row holds any more; a missing one would let a duplicate in), and ON CONFLICT DO NOTHING
 * over every email, whose row count says which emails the index holds.
 */
class IndexBuildDuringWritesTest {
    private static final int ROWS = 200_000;
    /** Changes whose rows are probed (the first ones; every change is replayed on PostgreSQL). */
    private static final int PROBED = 150;

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("index-build-writes-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    /** The writer's i-th change, the same on both databases; none makes two rows share an email. */
    private static String change(int i) {
        int id = 1 + (i * 7919) % ROWS;
        return switch (i % 3) {
            case 0 -> "UPDATE w SET email = 'moved-" + i + "', v = v + 1 WHERE id = " + id;
            case 1 -> "DELETE FROM w WHERE id = " + id;
            default -> "INSERT INTO w VALUES (" + (ROWS + i) + ", 'new-" + i + "', " + i + ")";
        };
    }

    @Test
    void writersGoOnAndTheIndexIsPostgresqlsAfterTheirChanges() throws Exception {
        for (String sql : List.of(
                "CREATE TABLE w (id bigint PRIMARY KEY, email text, v int)",
                "INSERT INTO w SELECT g, 'user-' || g, g % 1000 FROM generate_series(1, " + ROWS + ") AS g(g)",
                "UPDATE w SET email = NULL WHERE id % 1000 = 0")) {
            String[] outcome = pair.both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
        AtomicBoolean building = new AtomicBoolean(true);
        AtomicLong slowestNanos = new AtomicLong();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        List<String> applied = new ArrayList<>();
        Connection writerConnection = pair.tributary.connect("root", "", 120);
        Thread writer = new Thread(() -> {
            try (Statement st = writerConnection.createStatement()) {
                for (int i = 0; building.get(); i++) {
                    String sql = change(i);
                    long began = System.nanoTime();
                    st.execute(sql);
                    slowestNanos.accumulateAndGet(System.nanoTime() - began, Math::max);
                    synchronized (applied) {
                        applied.add(sql);
                    }
                }
            } catch (Throwable t) {
                writerFailure.set(t);
            }
        });
        writer.start();
        while (true) {
            synchronized (applied) {
                if (applied.size() >= 20 || writerFailure.get() != null) {
                    break;
                }
            }
            Thread.sleep(5);
        }
        long longestBuildNanos = 0;
        try (Statement st = pair.tributary.connection.createStatement()) {
            for (String sql : List.of("CREATE UNIQUE INDEX w_email ON w (email)", "CREATE INDEX w_v ON w (v)")) {
                long began = System.nanoTime();
                st.execute(sql);
                longestBuildNanos = Math.max(longestBuildNanos, System.nanoTime() - began);
            }
        } finally {
            building.set(false);
            writer.join();
            writerConnection.close();
        }
        assertEquals(null, writerFailure.get(), "the writer failed");
        // when a build held the barrier lock, a write made during it waited for nearly all of it
        assertTrue(
                slowestNanos.get() < longestBuildNanos / 2,
                "a write waited " + slowestNanos.get() / 1_000_000 + " ms; the longer build took "
                        + longestBuildNanos / 1_000_000 + " ms");

        try (Statement st = pair.pg.createStatement()) {
            for (String sql : applied) {
                st.execute(sql);
            }
            st.execute("CREATE UNIQUE INDEX w_email ON w (email)");
            st.execute("CREATE INDEX w_v ON w (v)");
        }
        List<String> probes = new ArrayList<>();
        probes.add("SELECT count(*), count(email), sum(v) FROM w");
        for (int i = 0; i < Math.min(applied.size(), PROBED); i += 3) {
            // the moved row's new email is held; its old one (user-<id>) is free again
            int id = 1 + (i * 7919) % ROWS;
            probes.add("INSERT INTO w VALUES (" + (2 * ROWS + i) + ", 'moved-" + i + "', 0)");
            probes.add("INSERT INTO w VALUES (" + (3 * ROWS + i) + ", 'user-" + id + "', 0)");
            if (i + 1 < applied.size()) {
                int deleted = 1 + ((i + 1) * 7919) % ROWS;
                probes.add("INSERT INTO w VALUES (" + (4 * ROWS + i) + ", 'user-" + deleted + "', 0)");
            }
            if (i + 2 < applied.size()) {
                probes.add("INSERT INTO w VALUES (" + (5 * ROWS + i) + ", 'new-" + (i + 2) + "', 0)");
            }
        }
        probes.add("INSERT INTO w SELECT id + " + 10 * ROWS + ", email, 0 FROM w ON CONFLICT (email) DO NOTHING");
        probes.add("SELECT count(*), count(email), count(DISTINCT email) FROM w");
        assertEquals(List.of(), pair.mismatches(probes));
    }
}
