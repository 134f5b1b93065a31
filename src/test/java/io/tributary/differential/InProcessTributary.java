package io.tributary.differential;

import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * An in-process Tributary on a data directory with one pgjdbc connection to it, opened again on the
 * same directory to check what survives a restart. Used by the differential tests of view shapes.
 */
final class InProcessTributary implements AutoCloseable {
    final Database db;
    final PgServer server;
    final Connection connection;

    InProcessTributary(Path dir, long barrierIntervalMs) throws SQLException {
        db = Database.open(dir, barrierIntervalMs, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("connectTimeout", "5");
        props.setProperty("socketTimeout", "60");
        connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", props);
        connection.setAutoCommit(true);
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
    }
}
