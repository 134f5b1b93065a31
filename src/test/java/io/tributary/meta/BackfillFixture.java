package io.tributary.meta;

import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.storage.StoreCensus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * An in-process database and pgwire server on a fresh directory, for the backfill tests that look inside the store
 * or measure timing: SQL over pgjdbc, the store's key counts ({@link StoreCensus}) and the jobs' progress as
 * {@code SHOW JOBS} prints it. Closing it deletes the directory.
 */
final class BackfillFixture implements AutoCloseable {
    private static final Pattern PROGRESS = Pattern.compile("\\((\\d+)/(\\d+|\\?)\\)");

    private final Path dataDir;
    private final long barrierIntervalMs;
    Database db;
    private PgServer server;

    /** @param barrierIntervalMs the epochs' interval, which is also how often a backfilling job checkpoints */
    BackfillFixture(long barrierIntervalMs) throws IOException {
        this.dataDir = Files.createTempDirectory("backfill-");
        this.barrierIntervalMs = barrierIntervalMs;
        open();
    }

    private void open() {
        db = Database.open(dataDir, barrierIntervalMs, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
    }

    /** Closes the database and opens it again on the same directory (connections must be opened anew). */
    void restart() {
        server.close();
        db.close();
        open();
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + server.port() + "/dev?user=root&socketTimeout=120");
    }

    static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** The rows of a query as sorted {@code a|b|c} strings. */
    static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        out.sort(null);
        return out;
    }

    /** Fails naming the rows only one side has when view {@code view} does not hold exactly what {@code query} returns. */
    static void assertViewEqualsQuery(Connection c, String view, String query) throws SQLException {
        List<String> expected = rows(c, query);
        List<String> actual = rows(c, "SELECT * FROM " + view);
        if (expected.equals(actual)) {
            return;
        }
        List<String> missing = new ArrayList<>(expected);
        actual.forEach(missing::remove);
        List<String> extra = new ArrayList<>(actual);
        expected.forEach(extra::remove);
        throw new AssertionError("view " + view + " differs from " + query + ": missing "
                + missing.subList(0, Math.min(20, missing.size())) + " (" + missing.size() + " rows), extra "
                + extra.subList(0, Math.min(20, extra.size())) + " (" + extra.size() + " rows)");
    }

    /** The id of relation {@code name} (a view's id is also its job's id). */
    int id(String name) {
        return db.catalog().table(name).orElseThrow().id();
    }

    /** What the store holds now. */
    StoreCensus census() {
        return StoreCensus.of(db.store());
    }

    /**
     * The rows done of the job with id {@code jobId} as {@code SHOW JOBS} shows it, or -1 when no such job is
     * listed (it finished or never was).
     */
    static long rowsDone(Connection c, int jobId) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW JOBS")) {
            while (rs.next()) {
                if (rs.getLong(1) == jobId) {
                    Matcher m = PROGRESS.matcher(rs.getString(3));
                    if (!m.find()) {
                        throw new AssertionError("progress not as expected: " + rs.getString(3));
                    }
                    return Long.parseLong(m.group(1));
                }
            }
        }
        return -1;
    }

    /**
     * Waits until job {@code jobId} has read {@code rows} rows, durable or not ({@code ddl_progress.rows_read}):
     * unlike {@link #rowsDone}, which moves only at checkpoints that a busy machine spaces far apart, this
     * tracks the job's reading as it happens, so what a test does next lands at that point of the backfill.
     */
    static long awaitRowsRead(Connection c, int jobId, long rows, long timeoutMs) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (true) {
            long read = -1;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT rows_read FROM tributary_catalog.ddl_progress WHERE job_id = " + jobId)) {
                if (rs.next()) {
                    read = rs.getLong(1);
                }
            }
            if (read >= rows) {
                return read;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("job " + jobId + " read only " + read + " rows in " + timeoutMs + " ms");
            }
            Thread.sleep(10);
        }
    }

    /** Polls until the job has done at least {@code rows} rows; fails after {@code timeoutMs}. */
    static long awaitRowsDone(Connection c, int jobId, long rows, long timeoutMs) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (true) {
            long done = rowsDone(c, jobId);
            if (done >= rows) {
                return done;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("job " + jobId + " did only " + done + " rows in " + timeoutMs + " ms");
            }
            Thread.sleep(10);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            server.close();
            db.close();
        } finally {
            try (Stream<Path> paths = Files.walk(dataDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
