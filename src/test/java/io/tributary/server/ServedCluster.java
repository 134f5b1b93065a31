package io.tributary.server;

import io.tributary.meta.Cluster;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.server.session.QueryLimits;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A cluster served over pgwire on a free port, for tests that reach its databases with pgjdbc.
 * Closing it stops the server, then closes the cluster.
 */
public final class ServedCluster implements AutoCloseable {
    private final Cluster cluster;
    private final PgServer server;

    /** Serves {@code cluster}, which this then owns. */
    public ServedCluster(Cluster cluster) {
        this.cluster = cluster;
        this.server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(cluster, QueryLimits.defaults()), null);
        server.start();
    }

    /** Opens the cluster in {@code dataDir} with 20 ms epochs and serves it. */
    public static ServedCluster open(Path dataDir) {
        return new ServedCluster(Cluster.open(dataDir, 20, CalciteViewPlanner::new));
    }

    /** A new session to {@code database} as {@code root}; the caller closes it. */
    public Connection connect(String database, int socketTimeoutSeconds) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("connectTimeout", "5");
        props.setProperty("socketTimeout", Integer.toString(socketTimeoutSeconds));
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/" + database, props);
    }

    @Override
    public void close() {
        server.close();
        cluster.close();
    }
}
