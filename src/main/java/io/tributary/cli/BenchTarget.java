package io.tributary.cli;

import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** A database a benchmark runs against over pgjdbc, started in this process and stopped by {@link #close()}. */
final class BenchTarget implements AutoCloseable {
    /** Tributary's default epoch length, so the figures are those of an out-of-the-box server. */
    static final long BARRIER_INTERVAL_MS = 1000;

    private final String name;
    private final String jdbcUrl;
    private final AutoCloseable stopper;
    /** Whether the target's server runs in this JVM, so this process's CPU time is its cost. */
    private final boolean inProcess;

    private BenchTarget(String name, String jdbcUrl, AutoCloseable stopper) {
        this.name = name;
        this.inProcess = !(stopper instanceof EmbeddedPostgres);
        this.jdbcUrl = jdbcUrl;
        this.stopper = stopper;
    }

    /** Whether the server runs in this JVM (Tributary), so {@link ProcessCpu} measures it. */
    boolean inProcess() {
        return inProcess;
    }

    /** Tributary in this JVM, on a free port, with its state in {@code dataDir}. */
    static BenchTarget tributary(Path dataDir) {
        Database db = Database.open(dataDir, BARRIER_INTERVAL_MS, CalciteViewPlanner::new);
        PgServer server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        try {
            server.start();
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return new BenchTarget("tributary", "jdbc:postgresql://127.0.0.1:" + server.port() + "/dev?user=root", () -> {
            server.close();
            db.close();
        });
    }

    /**
     * An embedded PostgreSQL with its cluster in {@code dataDir}. The embedding library turns
     * {@code fsync} and {@code synchronous_commit} off; both are turned back on so that, like
     * Tributary, PostgreSQL acknowledges a statement only once it is durable. The effective durability
     * settings are printed to {@code progress}, since they decide the single-row latency.
     */
    static BenchTarget postgres(Path dataDir, PrintStream progress) throws SQLException {
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .start();
            BenchTarget target = new BenchTarget("postgresql", pg.getJdbcUrl("postgres", "postgres"), pg);
            try (Connection c = target.connect();
                    Statement st = c.createStatement();
                    ResultSet rs =
                            st.executeQuery("SELECT current_setting('fsync'), current_setting('synchronous_commit'),"
                                    + " current_setting('wal_sync_method')")) {
                rs.next();
                progress.printf(
                        "postgresql: fsync=%s synchronous_commit=%s wal_sync_method=%s%n",
                        rs.getString(1), rs.getString(2), rs.getString(3));
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
        }
    }

    String name() {
        return name;
    }

    /** The pgjdbc URL of this database, with its user. */
    String jdbcUrl() {
        return jdbcUrl;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl);
    }

    @Override
    public void close() throws Exception {
        stopper.close();
    }
}
