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
 * victim fails with 57014 and stays usable) or ending it (FATAL 57P01, the connection is gone).
 * Both servers must give the same outcomes.
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
                "SELECT pg_terminate_backend(-1)"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void cancellingAnotherSessionsSleepAnswersAsPostgres() throws Exception {
        assertEquals(
                watchAndSignal(pair.pg, postgresVictim(), "pg_cancel_backend"),
                watchAndSignal(pair.tributary.connection, tributaryVictim(), "pg_cancel_backend"));
    }

    @Test
    void terminatingAnotherSessionAnswersAsPostgres() throws Exception {
        String postgres = watchAndSignal(pair.pg, postgresVictim(), "pg_terminate_backend");
        assertTrue(postgres.contains("57P01"), postgres);
        assertEquals(postgres, watchAndSignal(pair.tributary.connection, tributaryVictim(), "pg_terminate_backend"));
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
     * it active, then calls {@code signal} on its pid. Returns what happened, as text: the victim's
     * row, the signal's outcome, the sleep's outcome and that of a statement on the victim after.
     */
    private static String watchAndSignal(Connection watcher, Connection victim, String signal) throws Exception {
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
            String signalled = StatementOutcome.of(watcher, "SELECT " + signal + "(" + pid + ")", true);
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
