package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A backfill converges while a writer keeps writing: each CREATE MATERIALIZED VIEW runs while
 * another session INSERTs one row every 2 ms into the table the view reads (each INSERT its own
 * epoch), and must return within {@link #CONVERGE_SECONDS}; afterwards the view equals
 * PostgreSQL's answer to its query over the same rows (docs/ARCHITECTURE.md, "A backfill joins
 * the live flow near the head"). On an unloaded machine the old join rule also converged here; the
 * stall it guards against showed with the machine loaded (bench backfill with busy loops).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BackfillUnderWritesDifferentialTest {
    private static final int ROWS = 30_000;
    private static final long WRITE_EVERY_MS = 2;
    /** Generous for a loaded 2-core machine; a stalled backfill stays at 99.99% for minutes. */
    private static final long CONVERGE_SECONDS = 90;
    /** Rows the writer adds after a view went live, so the live maintenance is compared too. */
    private static final int ROWS_AFTER_LIVE = 100;

    /** The last one's snapshot rows are copied as stored (Chunk.ofStored), its change log decoded. */
    private static final String[] QUERIES = {
        "SELECT g, count(*) AS n, sum(v) AS s FROM t GROUP BY g",
        "SELECT t.id, t.v, d.name FROM t JOIN d ON t.g = d.g",
        "SELECT * FROM t",
    };

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("catchup-", 1000, 120);

    @Test
    void backfillsConvergeWhileAWriterWritesAndEqualPostgres() throws Exception {
        String setup = "CREATE TABLE t (id BIGINT PRIMARY KEY, g INT, v INT);"
                + "CREATE TABLE d (g INT PRIMARY KEY, name TEXT);"
                + "INSERT INTO t SELECT x, x % 50, x FROM generate_series(1, " + ROWS + ") AS s(x);"
                + "INSERT INTO d SELECT x, 'g' || x FROM generate_series(0, 49) AS s(x)";
        InProcessTributary.execScript(databases.trib(), setup);
        InProcessTributary.execScript(databases.pg(), setup);
        AtomicLong lastId = new AtomicLong(ROWS);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection writerSession = databases.tributary().connect("root", "", 120);
                Connection ddl = databases.tributary().connect("root", "", 600)) {
            for (int i = 0; i < QUERIES.length; i++) {
                AtomicBoolean stopWriting = new AtomicBoolean();
                AtomicReference<Throwable> writerError = new AtomicReference<>();
                Future<?> writer = pool.submit(() -> write(writerSession, lastId, stopWriting, writerError));
                String view = "v" + i;
                String query = QUERIES[i];
                long started = System.nanoTime();
                long before = lastId.get();
                Future<?> create = pool.submit(() -> {
                    try (Statement st = ddl.createStatement()) {
                        st.execute("CREATE MATERIALIZED VIEW " + view + " AS " + query);
                    }
                    return null;
                });
                boolean converged;
                try {
                    create.get(CONVERGE_SECONDS, TimeUnit.SECONDS);
                    converged = true;
                } catch (TimeoutException e) {
                    converged = false;
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                long duringCreate = lastId.get() - before;
                long live = lastId.get();
                while (converged && lastId.get() < live + ROWS_AFTER_LIVE && writerError.get() == null) {
                    Thread.sleep(WRITE_EVERY_MS);
                }
                stopWriting.set(true);
                writer.get(60, TimeUnit.SECONDS);
                // whatever happened, the CREATE ends once the writer stopped, so the next view starts clean
                create.get(CONVERGE_SECONDS, TimeUnit.SECONDS);
                System.out.printf(
                        java.util.Locale.ROOT,
                        "view %s: CREATE returned after %.1f s while %d rows were inserted%n",
                        view,
                        seconds,
                        duringCreate);
                assertNull(writerError.get(), "the writer failed");
                assertTrue(
                        converged,
                        "CREATE MATERIALIZED VIEW " + view + " did not return within " + CONVERGE_SECONDS
                                + " s while a writer inserted a row every " + WRITE_EVERY_MS + " ms");
                assertTrue(duringCreate > 0, "the writer wrote while the view was created");
            }
        } finally {
            pool.shutdownNow();
        }
        // the writer's acknowledged rows, all of them and nothing else, into PostgreSQL
        try (Statement st = databases.pg().createStatement()) {
            st.execute("INSERT INTO t SELECT x, x % 50, x FROM generate_series(" + (ROWS + 1) + ", " + lastId.get()
                    + ") AS s(x)");
        }
        assertEquals(List.of(Long.toString(lastId.get())), SortedRows.of(databases.trib(), "SELECT count(*) FROM t"));
        for (int i = 0; i < QUERIES.length; i++) {
            assertEquals(
                    SortedRows.of(databases.pg(), QUERIES[i]),
                    SortedRows.of(databases.trib(), "SELECT * FROM v" + i),
                    "view v" + i);
        }
    }

    /** Single-row INSERTs with consecutive ids, one every {@link #WRITE_EVERY_MS}, until told to stop. */
    private static void write(
            Connection session, AtomicLong lastId, AtomicBoolean stop, AtomicReference<Throwable> error) {
        try (PreparedStatement insert = session.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
            while (!stop.get()) {
                long id = lastId.get() + 1;
                insert.setLong(1, id);
                insert.setInt(2, (int) (id % 50));
                insert.setInt(3, (int) id);
                insert.executeUpdate();
                lastId.set(id);
                Thread.sleep(WRITE_EVERY_MS);
            }
        } catch (SQLException | RuntimeException e) {
            error.set(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
