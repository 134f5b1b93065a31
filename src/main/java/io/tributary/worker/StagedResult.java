package io.tributary.worker;

import io.tributary.meta.jobs.JobPlacement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A view job's state, staged in {@code tributary_job_results} chunk by chunk as the worker reads it
 * from its scratch database, so neither the worker nor the server holds the whole state in memory.
 * Each chunk commits in a transaction of its own that first locks the job's row ({@code FOR SHARE})
 * and checks the attempt still owns it: once the server gave the attempt up (cancel, fallback, a
 * newer attempt) no chunk of it commits, and the server reads only the chunks of the attempt that
 * was marked done. The chunks share one connection, opened at the first and closed by {@link
 * #close}: a connection per chunk (a PostgreSQL backend forked, TLS asked for, authentication) was
 * most of a view job's wall time on a loaded worker (async-profiler, wall clock, {@code bench remote
 * --part views}: 35 s of a 38 s staging of 300,000 pairs). Used by one db-scheduler thread; not
 * thread-safe.
 */
final class StagedResult implements JobPlacement.PairConsumer, AutoCloseable {
    /** A chunk ends at this many pairs or {@link #CHUNK_BYTES}, whichever comes first. */
    private static final int CHUNK_PAIRS = 5_000;

    private static final int CHUNK_BYTES = 4 << 20;

    private final DataSource ds;
    private final String jobId;
    private final int attempt;
    private final String worker;
    private final byte[][] keys = new byte[CHUNK_PAIRS][];
    private final byte[][] values = new byte[CHUNK_PAIRS][];
    private int pending;
    private long pendingBytes;
    private int seq;
    private boolean givenUp;
    /** The chunks' connection, null before the first chunk and after a failed one. */
    private Connection connection;

    StagedResult(DataSource ds, String jobId, int attempt, String worker) {
        this.ds = ds;
        this.jobId = jobId;
        this.attempt = attempt;
        this.worker = worker;
    }

    /**
     * Adds a pair; a full chunk is committed.
     *
     * @throws IllegalStateException when the jobs database cannot be written (the attempt is retried)
     */
    @Override
    public void accept(byte[] key, byte[] value) {
        if (givenUp) {
            return;
        }
        keys[pending] = key;
        values[pending] = value;
        pending++;
        pendingBytes += key.length + value.length;
        if (pending == CHUNK_PAIRS || pendingBytes >= CHUNK_BYTES) {
            flush();
        }
    }

    /**
     * Commits the last chunk.
     *
     * @return false when the attempt was given up meanwhile (its chunks stay uncommitted)
     */
    boolean complete() {
        flush();
        return !givenUp;
    }

    /** The pairs staged so far. */
    int staged() {
        return seq;
    }

    private void flush() {
        if (pending == 0 || givenUp) {
            return;
        }
        try {
            if (connection == null) {
                connection = ds.getConnection();
                connection.setAutoCommit(false);
            }
            Connection c = connection;
            if (!owns(c, jobId, attempt, worker)) {
                c.rollback();
                givenUp = true;
                return;
            }
            StagingCopy copy = new StagingCopy(c, "tributary_job_results", jobId, attempt);
            for (int i = 0; i < pending; i++) {
                copy.row(seq + i, keys[i], values[i]);
            }
            copy.end();
            c.commit();
        } catch (SQLException e) {
            // the attempt fails and is retried; closing rolls back whatever the chunk left open
            close();
            throw new IllegalStateException("staging the result of job " + jobId + ": " + e.getMessage(), e);
        }
        seq += pending;
        java.util.Arrays.fill(keys, 0, pending, null);
        java.util.Arrays.fill(values, 0, pending, null);
        pending = 0;
        pendingBytes = 0;
    }

    /** Closes the chunks' connection; what the last chunk committed stays. */
    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // a connection that cannot close is gone with its transaction; nothing of it committed
            }
            connection = null;
        }
    }

    /**
     * In {@code c}'s open transaction: locks job {@code jobId}'s row ({@code FOR SHARE}, so no
     * claim by a later attempt, cancel or fallback commits before this transaction ends) and says
     * whether attempt {@code attempt} of {@code worker} still owns it.
     */
    static boolean owns(Connection c, String jobId, int attempt, String worker) throws SQLException {
        try (PreparedStatement own = c.prepareStatement("SELECT 1 FROM tributary_remote_jobs WHERE id = ? AND"
                + " attempts = ? AND worker = ? AND state = 'running' FOR SHARE")) {
            own.setString(1, jobId);
            own.setInt(2, attempt);
            own.setString(3, worker);
            try (ResultSet rs = own.executeQuery()) {
                return rs.next();
            }
        }
    }
}
