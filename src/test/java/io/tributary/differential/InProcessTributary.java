package io.tributary.differential;

import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * An in-process Tributary on a data directory with one pgjdbc connection to it: what every
 * differential test compares with {@link DifferentialPostgres}. Opened on a given directory, it can
 * be opened again there to check what survives a restart; opened by {@link #temporary}, it deletes
 * its directory at close.
 */
final class InProcessTributary implements AutoCloseable {
    private static final int DEFAULT_SOCKET_TIMEOUT_SECONDS = 60;

    final Database db;
    final PgServer server;
    /** The first session, autocommit on. */
    final Connection connection;

    /** The directory to delete at close, or null when the caller owns it. */
    private final Path ownedDir;

    /** On {@code dir}, which the caller owns; the connection logs in as {@code root}. */
    InProcessTributary(Path dir, long barrierIntervalMs) throws SQLException {
        this(dir, null, barrierIntervalMs, "root", "", DEFAULT_SOCKET_TIMEOUT_SECONDS);
    }

    private InProcessTributary(
            Path dir, Path ownedDir, long barrierIntervalMs, String user, String urlQuery, int socketTimeoutSeconds)
            throws SQLException {
        this.ownedDir = ownedDir;
        db = Database.open(dir, barrierIntervalMs, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
        connection = connect(user, urlQuery, socketTimeoutSeconds);
    }

    /**
     * On a new temporary directory (deleted at close).
     *
     * @param prefix the directory name's prefix
     * @param user who the first session logs in as (the tests comparing {@code current_user} use
     *     PostgreSQL's {@code postgres})
     * @param urlQuery appended to the JDBC URL, e.g. {@code "?preferQueryMode=simple"}, or empty
     * @param socketTimeoutSeconds how long a statement may take before pgjdbc gives up on it
     */
    static InProcessTributary temporary(
            String prefix, long barrierIntervalMs, String user, String urlQuery, int socketTimeoutSeconds)
            throws SQLException, IOException {
        Path dir = Files.createTempDirectory(prefix);
        try {
            return new InProcessTributary(dir, dir, barrierIntervalMs, user, urlQuery, socketTimeoutSeconds);
        } catch (SQLException | RuntimeException e) {
            Cleanup.deleteTree(dir);
            throw e;
        }
    }

    /** A new session to this Tributary, autocommit on; the caller closes it. */
    Connection connect(String user, String urlQuery, int socketTimeoutSeconds) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("connectTimeout", "5");
        props.setProperty("socketTimeout", Integer.toString(socketTimeoutSeconds));
        Connection c =
                DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev" + urlQuery, props);
        c.setAutoCommit(true);
        return c;
    }

    int port() {
        return server.port();
    }

    /** Runs each non-blank statement of the {@code ;}-separated {@code script} on {@code c}, in order. */
    static void execScript(Connection c, String script) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String s : script.split(";")) {
                if (!s.isBlank()) {
                    st.execute(s);
                }
            }
        }
    }

    @Override
    public void close() {
        Cleanup.closeAll(connection, server, db);
        if (ownedDir != null) {
            Cleanup.deleteTree(ownedDir);
        }
    }
}
