package io.tributary.server.http;

import io.tributary.meta.Cluster;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.server.session.QueryLimits;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A cluster served over pgwire and HTTP (dashboard, {@code /metrics}) on free ports, wired as the
 * server's main wires it, for the tests of several databases over HTTP. Closed once.
 */
final class ServedDatabasesOverHttp implements AutoCloseable {
    final Cluster cluster;
    final EngineMeters meters;
    final PgServer pg;
    final DashboardServer http;

    /** Opens the cluster in {@code dataDir} with 20 ms epochs and serves it. */
    ServedDatabasesOverHttp(Path dataDir) {
        cluster = Cluster.open(dataDir, 20, CalciteViewPlanner::new);
        EngineSessionFactory sessions = new EngineSessionFactory(cluster, QueryLimits.defaults());
        meters = EngineMeters.bind(DashboardServer.databasesOf(cluster));
        pg = new PgServer("127.0.0.1", 0, sessions, null, meters);
        pg.start();
        http = new DashboardServer("127.0.0.1", 0, DashboardServer.databasesOf(cluster), sessions, null, meters);
        http.start();
    }

    Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + database + "?user=root");
    }

    void exec(String database, String... sqls) throws SQLException {
        try (Connection c = connect(database);
                Statement st = c.createStatement()) {
            for (String sql : sqls) {
                st.execute(sql);
            }
        }
    }

    /** {@code query}'s rows in {@code database}, each as its columns' text joined by {@code |}. */
    List<String> rows(String database, String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(database);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    @Override
    public void close() {
        http.close();
        meters.close();
        pg.close();
        cluster.close();
    }
}
