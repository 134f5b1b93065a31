package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two sessions race: one inserts a referencing row for each key while the other deletes the
 * referenced row of that key (in statements and in transaction blocks). Whichever wins, no
 * referencing row may be left without its referenced row, and each loser fails with 23503.
 */
class ForeignKeyRaceTest {
    private static final int KEYS = 150;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        tributary = InProcessTributary.temporary("fk-race-", 20, "postgres", "", 60);
        try (Statement s = tributary.connection.createStatement()) {
            s.execute("CREATE TABLE p (id int PRIMARY KEY)");
            s.execute("CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p)");
            s.execute("INSERT INTO p SELECT x FROM generate_series(1, " + KEYS + ") AS g(x)");
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(tributary);
    }

    @Test
    void aReferencingInsertRacingAReferencedDeleteLeavesNoOrphan() throws Exception {
        AtomicInteger unexpected = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        Thread inserter = new Thread(() -> race(
                go,
                unexpected,
                k -> k % 2 == 0
                        ? new String[] {"INSERT INTO c VALUES (" + k + ", " + k + ")"}
                        : new String[] {"BEGIN", "INSERT INTO c VALUES (" + k + ", " + k + ")", "COMMIT"}));
        Thread deleter = new Thread(() -> race(
                go,
                unexpected,
                k -> k % 3 == 0
                        ? new String[] {"BEGIN", "DELETE FROM p WHERE id = " + k, "COMMIT"}
                        : new String[] {"DELETE FROM p WHERE id = " + k}));
        inserter.start();
        deleter.start();
        go.countDown();
        inserter.join();
        deleter.join();
        assertEquals(0, unexpected.get(), "errors other than 23503");
        try (Statement s = tributary.connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM c WHERE pid NOT IN (SELECT id FROM p)")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "referencing rows without their referenced row");
        }
    }

    private static void race(
            CountDownLatch go, AtomicInteger unexpected, java.util.function.IntFunction<String[]> statements) {
        try (Connection c = tributary.connect("postgres", "", 60);
                Statement s = c.createStatement()) {
            go.await();
            for (int k = 1; k <= KEYS; k++) {
                try {
                    for (String sql : statements.apply(k)) {
                        s.execute(sql);
                    }
                } catch (SQLException e) {
                    if (!"23503".equals(e.getSQLState())) {
                        unexpected.incrementAndGet();
                    }
                    s.execute("ROLLBACK");
                }
            }
        } catch (Exception e) {
            unexpected.incrementAndGet();
        }
    }
}
