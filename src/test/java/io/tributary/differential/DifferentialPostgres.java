package io.tributary.differential;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The PostgreSQL every differential test compares with: one embedded server (locale C, UTF8, so
 * text sorts bytewise as in Tributary), started by the first test class that asks and stopped when
 * the test JVM exits. Test classes run one after another (surefire runs no classes in parallel),
 * and each starts from an empty database {@code dev} ({@link #freshDev}), so no class sees
 * another's tables.
 */
final class DifferentialPostgres {
    private static EmbeddedPostgres server;

    private DifferentialPostgres() {}

    /** The shared server, started on first use. */
    static synchronized EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder()
                        .setLocaleConfig("locale", "C")
                        .setLocaleConfig("encoding", "UTF8")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            EmbeddedPostgres started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException e) {
                    // the JVM is exiting; the data directory is temporary
                }
            }));
        }
        return server;
    }

    static int port() {
        return server().getPort();
    }

    /**
     * Drops database {@code dev} (ending any session a previous class left) and creates it again,
     * then returns a connection to it as {@code postgres}, autocommit on. Called once per test class,
     * before it creates anything.
     */
    static Connection freshDev() throws SQLException {
        try (Connection c = server().getPostgresDatabase().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS dev WITH (FORCE)");
            s.execute("CREATE DATABASE dev");
        }
        return connectDev();
    }

    /** Another session on {@code dev} as {@code postgres}, autocommit on. */
    static Connection connectDev() throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port() + "/dev", "postgres", "");
        c.setAutoCommit(true);
        return c;
    }
}
