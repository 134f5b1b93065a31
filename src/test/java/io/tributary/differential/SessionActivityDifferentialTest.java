package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code pg_stat_activity}, {@code pg_backend_pid()}, {@code pg_cancel_backend} and
 * {@code pg_terminate_backend} over pgjdbc, on Tributary and on an embedded PostgreSQL: a session's
 * own row, and one session watching another's running {@code pg_sleep}, then cancelling it (the
 * victim fails with 57014 and stays usable) or ending it (FATAL 57P01, the connection is gone),
 * by the whole statement {@code SELECT pg_cancel_backend(pid)} and by the idiom that calls the
 * function for each row of {@code pg_stat_activity} it selects. Both servers must give the same
 * outcomes.
 */
class SessionActivityDifferentialTest {
    private static final String VICTIM = "activity-victim";

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("activity-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void ownRowAnswersAsPostgres() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT state, query, backend_type, datname = current_database() AS d, usename = current_user AS u,"
                        + " backend_start <= query_start AS b, xact_start <= query_start AS x, pid = pg_backend_pid() AS p"
                        + " FROM pg_stat_activity WHERE pid = pg_backend_pid()",
                "SELECT count(*) AS n FROM pg_stat_activity WHERE pid = pg_backend_pid() AND state = 'active'",
                "SELECT pg_backend_pid() > 0 AS a",
                "SELECT pg_cancel_backend(0)",
                "SELECT pg_terminate_backend(-1)",
                "SELECT x, pg_cancel_backend(x) AS c, pg_terminate_backend(x) AS t FROM (VALUES (0), (-1), (NULL)) v(x)"
                        + " ORDER BY x",
                "SELECT x, pg_terminate_backend(pg_backend_pid()) FROM (VALUES (1)) v(x) WHERE x > 5",
                "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid = pg_backend_pid()",
                "SELECT 1 AS after_cancel"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void cancellingAnotherSessionsSleepAnswersAsPostgres() throws Exception {
        assertEquals(
                watchAndSignal(pair.pg, postgresVictim(), pid -> "SELECT pg_cancel_backend(" + pid + ")"),
                watchAndSignal(
                        pair.tributary.connection, tributaryVictim(), pid -> "SELECT pg_cancel_backend(" + pid + ")"));
    }

    @Test
    void cancellingFromActivityRowsAnswersAsPostgres() throws Exception {
        java.util.function.LongFunction<String> idiom = pid -> "SELECT pid = " + pid
                + " AS victim, pg_cancel_backend(pid) AS cancelled FROM pg_stat_activity"
                + " WHERE application_name = '" + VICTIM + "' AND pid <> pg_backend_pid()";
        String postgres = watchAndSignal(pair.pg, postgresVictim(), idiom);
        assertTrue(postgres.contains("57014"), postgres);
        assertEquals(postgres, watchAndSignal(pair.tributary.connection, tributaryVictim(), idiom));
    }

    @Test
    void terminatingFromActivityRowsAnswersAsPostgres() throws Exception {
        java.util.function.LongFunction<String> idiom = pid -> "SELECT pg_terminate_backend(pid) AS t"
                + " FROM pg_stat_activity WHERE application_name = '" + VICTIM + "' AND pid <> pg_backend_pid()";
        String postgres = watchAndSignal(pair.pg, postgresVictim(), idiom);
        assertTrue(postgres.contains("57P01"), postgres);
        assertEquals(postgres, watchAndSignal(pair.tributary.connection, tributaryVictim(), idiom));
    }

    @Test
    void terminatingAnotherSessionAnswersAsPostgres() throws Exception {
        java.util.function.LongFunction<String> statement = pid -> "SELECT pg_terminate_backend(" + pid + ")";
        String postgres = watchAndSignal(pair.pg, postgresVictim(), statement);
        assertTrue(postgres.contains("57P01"), postgres);
        assertEquals(postgres, watchAndSignal(pair.tributary.connection, tributaryVictim(), statement));
    }

    private static Connection postgresVictim() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + DifferentialPostgres.port() + "/dev?ApplicationName=" + VICTIM,
                "postgres",
                "");
    }

    private static Connection tributaryVictim() throws SQLException {
        return pair.tributary.connect("postgres", "?ApplicationName=" + VICTIM, 120);
    }

    /**
     * The victim runs {@code pg_sleep(120)}; the watcher waits until {@code pg_stat_activity} shows
     * it active, then runs {@code signal} of its pid. Returns what happened, as text: the victim's
     * row, the signal's outcome, the sleep's outcome and that of a statement on the victim after.
     */
    private static String watchAndSignal(
            Connection watcher, Connection victim, java.util.function.LongFunction<String> signal) throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (victim) {
            Future<String> sleep = executor.submit(() -> outcome(victim, "SELECT pg_sleep(120)"));
            String row = null;
            long pid = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (row == null && System.nanoTime() < deadline) {
                try (Statement s = watcher.createStatement();
                        ResultSet rs = s.executeQuery("SELECT pid, state, query, application_name FROM pg_stat_activity"
                                + " WHERE application_name = '" + VICTIM + "' AND state = 'active'")) {
                    if (rs.next()) {
                        pid = rs.getLong(1);
                        row = rs.getString(2) + " | " + rs.getString(3) + " | " + rs.getString(4);
                    }
                }
                if (row == null) {
                    Thread.sleep(100);
                }
            }
            String signalled = StatementOutcome.of(watcher, signal.apply(pid), true);
            String slept = sleep.get(120, TimeUnit.SECONDS);
            return row + "\n" + signalled + "\n" + slept + "\n" + outcome(victim, "SELECT 1 AS one");
        } finally {
            executor.shutdownNow();
        }
    }

    private static String outcome(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
            return "ok";
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState();
        }
    }
}
