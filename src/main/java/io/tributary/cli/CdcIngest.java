package io.tributary.cli;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * {@code bench ingest --source postgres-cdc}: change data capture from an upstream embedded
 * PostgreSQL ({@code wal_level = logical}, the embedding's defaults otherwise, so fsync off) that
 * this workload starts in the benchmark's directory. Each round's upstream table starts empty, so
 * the snapshot is instant; once the source streams, the datagen workload's rows are committed
 * upstream with COPY in transactions of {@value #ROWS_PER_TRANSACTION} rows while Tributary
 * streams them in, and the time runs from the first upstream COPY until Tributary committed every
 * row. The changes are inserts, so the reference is PostgreSQL's COPY of the same rows into a plain
 * table; the upstream's own commit rate of the last round is printed too.
 */
final class CdcIngest implements IngestWorkload {
    private static final long ROWS_PER_TRANSACTION = 100_000;
    private static final long STREAMING_TIMEOUT_MS = 60_000;

    private EmbeddedPostgres upstream;
    private double upstreamRowsPerSecond;

    @Override
    public String name() {
        return "postgres-cdc";
    }

    @Override
    public String columns() {
        return DatagenIngest.COLUMNS_SQL;
    }

    @Override
    public String prepare(Path workDir, String table, long rows, int splits) throws Exception {
        if (upstream == null) {
            upstream = EmbeddedPostgres.builder()
                    .setDataDirectory(workDir.resolveSibling("upstream-postgresql"))
                    .setServerConfig("wal_level", "logical")
                    .setServerConfig("max_replication_slots", "10")
                    .setServerConfig("max_wal_senders", "10")
                    .start();
        }
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + table);
            st.execute("CREATE TABLE " + table + " " + columns());
        }
        return "WITH (connector = 'postgres-cdc', hostname = '127.0.0.1', port = '" + upstream.getPort()
                + "', username = 'postgres', database.name = 'postgres', table.name = '" + table + "')";
    }

    private Connection connect() throws SQLException {
        Connection c = upstream.getPostgresDatabase().getConnection();
        c.setAutoCommit(true);
        return c;
    }

    /** Waits for the (empty) snapshot to end, then commits the rows upstream; the time starts at the first COPY. */
    @Override
    public long feed(Statement tributary, String table, long rows, long createdAt) throws Exception {
        long deadline = System.currentTimeMillis() + STREAMING_TIMEOUT_MS;
        while (!"streaming".equals(phase(tributary, table))) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(
                        "the postgres-cdc source of " + table + " did not start streaming: " + phase(tributary, table));
            }
            Thread.sleep(20);
        }
        long start = System.nanoTime();
        long transactions = 0;
        try (Connection c = connect();
                BufferedReader lines = new BufferedReader(DatagenIngest.text(rows, '\t'), 1 << 16)) {
            ByteArrayOutputStream chunk = new ByteArrayOutputStream(1 << 17);
            String line = lines.readLine();
            while (line != null) {
                CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " FROM STDIN");
                for (long n = 0; n < ROWS_PER_TRANSACTION && line != null; n++, line = lines.readLine()) {
                    chunk.writeBytes(line.getBytes(StandardCharsets.UTF_8));
                    chunk.write('\n');
                    if (chunk.size() >= 1 << 16) {
                        copy.writeToCopy(chunk.toByteArray(), 0, chunk.size());
                        chunk.reset();
                    }
                }
                copy.writeToCopy(chunk.toByteArray(), 0, chunk.size());
                chunk.reset();
                copy.endCopy();
                transactions++;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        upstreamRowsPerSecond = rows / seconds;
        System.err.printf(
                "upstream postgresql: %,d rows committed in %d transactions in %.1f s (%,.0f rows/s)%n",
                rows, transactions, seconds, upstreamRowsPerSecond);
        return start;
    }

    private static String phase(Statement tributary, String table) throws SQLException {
        try (ResultSet rs = tributary.executeQuery("SELECT phase, last_error FROM tributary_catalog.source_progress"
                + " WHERE table_name = '" + table + "'")) {
            return rs.next()
                    ? rs.getString(1) + (rs.getString(2) == null ? "" : ": " + rs.getString(2))
                    : "not started";
        }
    }

    @Override
    public int splits(int requested) {
        return 1;
    }

    @Override
    public Reader copyInput(long rows) {
        return DatagenIngest.text(rows, '\t');
    }

    @Override
    public String method() {
        return "tributary: from the first upstream COPY (inserts committed in transactions of "
                + String.format("%,d", ROWS_PER_TRANSACTION) + " rows into an upstream PostgreSQL, which itself"
                + " committed them at " + String.format("%,.0f", upstreamRowsPerSecond) + " rows/s in the last round)"
                + " until Tributary committed every change (the view in the same epochs); postgresql: COPY FROM STDIN"
                + " of the same rows into a plain table (+ REFRESH MATERIALIZED VIEW)";
    }

    @Override
    public void close() throws Exception {
        if (upstream != null) {
            upstream.close();
        }
    }
}
