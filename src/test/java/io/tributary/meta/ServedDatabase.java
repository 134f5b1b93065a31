package io.tributary.meta;

import io.tributary.catalog.TableDef;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * A database served over pgwire on a free port, for the state-cleaning tests that reach it with
 * pgjdbc and look into its committed state (temporal filters, window aggregates, window and
 * interval joins, sessions), with the small reads they share (also used by the crash tests on
 * their servers). Closing it stops the server, then closes the database; opening the same
 * directory again is a restart.
 */
public final class ServedDatabase implements AutoCloseable {
    private final Database db;
    private final PgServer server;

    private ServedDatabase(Database db) {
        this.db = db;
        this.server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
    }

    /** Opens (or recovers) the database in {@code dir} with epochs every {@code barrierIntervalMs} and serves it. */
    public static ServedDatabase open(Path dir, long barrierIntervalMs) {
        return new ServedDatabase(Database.open(dir, barrierIntervalMs, CalciteViewPlanner::new));
    }

    public Database db() {
        return db;
    }

    /** A new session as {@code root}; the caller closes it. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev?user=root");
    }

    /** The keys in the state tables of view {@code name}, as committed. */
    public long stateKeys(String name) {
        return stateKeys(db, name);
    }

    /** The keys in the state tables of view {@code name} of {@code db}, as committed. */
    public static long stateKeys(Database db, String name) {
        TableDef view = db.catalog().table(name).orElseThrow();
        long keys = 0;
        try (ReadView committed = db.store().latest()) {
            for (int id : view.stateTableIds()) {
                try (KvIterator it = committed.scan(Keyspace.DATA, TableKeys.tableStart(id), TableKeys.tableEnd(id))) {
                    while (it.next()) {
                        keys++;
                    }
                }
            }
        }
        return keys;
    }

    /** The first column of the first row of {@code sql}, as a long. */
    public static long scalar(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The rows of {@code sql} as text, columns joined by {@code |} (NULL as {@code null}), sorted. */
    public static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringJoiner row = new StringJoiner("|");
                for (int i = 1; i <= n; i++) {
                    row.add(String.valueOf(rs.getString(i)));
                }
                out.add(row.toString());
            }
        }
        out.sort(null);
        return out;
    }

    /** The plan EXPLAIN prints for a view of {@code query}, its lines joined by newlines. */
    public static String explainView(Statement st, String query) throws SQLException {
        return String.join("\n", rows(st, "EXPLAIN CREATE MATERIALIZED VIEW x AS " + query));
    }

    /** The rows of watermarked {@code table} dropped as later than its watermark. */
    public static long lateRows(Statement st, String table) throws SQLException {
        return scalar(st, "SELECT late_rows FROM tributary_catalog.watermarks WHERE table_name = '" + table + "'");
    }

    /** The watermark of {@code table}, as text. */
    public static String watermark(Statement st, String table) throws SQLException {
        return rows(st, "SELECT watermark FROM tributary_catalog.watermarks WHERE table_name = '" + table + "'")
                .get(0);
    }

    /**
     * The rows of {@code sql} as {@link #rows} gives them, read again every 50 ms until they equal
     * {@code expected} or {@code timeoutMs} passed: for a view that changes at the next barrier.
     *
     * @return the rows last read, which the caller compares with {@code expected}
     */
    public static List<String> awaitRows(Statement st, String sql, List<String> expected, long timeoutMs)
            throws SQLException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        List<String> actual = rows(st, sql);
        while (!actual.equals(expected) && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
            actual = rows(st, sql);
        }
        return actual;
    }

    @Override
    public void close() {
        server.close();
        db.close();
    }
}
