package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one long DDL statement again and again, SIGKILLing the server after a delay that grows
 * fourfold each round, until a restart shows the statement's effect: each restart is checked by the
 * caller (which fails the test when the state is neither before nor after the statement), an
 * acknowledged statement must never be lost, and at least one kill must land while it ran.
 */
final class GrowingKills {
    private GrowingKills() {}

    /** Starts the server again on its data directory. */
    interface Restart {
        ServerProcess start() throws Exception;
    }

    /** Checks the restarted server's state; returns whether the statement's effect is there. */
    interface Check {
        boolean applied(ServerProcess server) throws Exception;
    }

    /** @return the server running after the last restart, where the statement's effect is */
    static ServerProcess untilApplied(ServerProcess server, String sql, long firstDelayMs, Restart restart, Check check)
            throws Exception {
        int killedInFlight = 0;
        boolean applied = false;
        for (long delayMs = firstDelayMs; !applied; delayMs *= 4) {
            AtomicReference<SQLException> failure = new AtomicReference<>();
            // connected before the clock starts, so the delay measures the statement alone
            Connection connection = DriverManager.getConnection(server.jdbcUrl());
            Thread statement = new Thread(() -> {
                try (Connection c = connection;
                        Statement st = c.createStatement()) {
                    st.execute(sql);
                } catch (SQLException e) {
                    failure.set(e);
                }
            });
            statement.start();
            statement.join(delayMs);
            boolean inFlight = statement.isAlive();
            server.kill9();
            statement.join();
            if (inFlight) {
                killedInFlight++;
            }
            server = restart.start();
            applied = check.applied(server);
            assertTrue(applied || inFlight || failure.get() != null, "an acknowledged statement was lost: " + sql);
            assertTrue(delayMs < 600_000, "the statement never finished: " + sql);
        }
        assertTrue(killedInFlight > 0, "no kill landed while the statement ran: " + sql);
        return server;
    }
}
