package io.tributary.worker;

import io.tributary.meta.ScratchViewBuild;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * The checkpoints of one attempt at a view's snapshot phase, committed to {@code
 * tributary_job_checkpoints} in batches over one connection the attempt holds: a batch is a run of
 * whole checkpoints (each one's state changes and vnode positions together) sent with {@code COPY}
 * in one transaction, committed once it holds {@link #BATCH_BYTES} or the last commit is {@link
 * #BATCH_MILLIS} old, and when the build ends ({@link #flush}). Just before it commits, the transaction locks the
 * job's row ({@code FOR SHARE}) and checks the attempt still owns it, and raises the job's {@code
 * rows_done} to the snapshot rows its last checkpoint's positions have read (never lowers it). The
 * row is locked only for that moment, not while the batch fills: a worker that stalls (a long
 * pause, SIGSTOP) with a batch open blocks no cancel, fallback or claim by another worker.
 *
 * <p>Why this stays exactly once: a batch is there whole or not at all, and it ends at a checkpoint
 * boundary, so the committed checkpoints are always a prefix of the build's checkpoints, each a
 * delta written atomically with the positions it covers; replaying that prefix gives the state as
 * of its last checkpoint, and the next attempt reads on after those positions. Checkpoints of the
 * open batch that die with the attempt are lost, not half-applied: the next attempt reads those
 * rows again. From the ownership check to the commit the row lock keeps a claim by a later
 * attempt, a cancel or a fallback from committing, and once one of those committed no batch of
 * this attempt can.
 *
 * <p>Called on the scratch build's checkpoint threads, one at a time (hence synchronized), then by
 * the job's thread ({@link #flush}, {@link #close}).
 */
final class StagedCheckpoints implements ScratchViewBuild.Checkpoints, AutoCloseable {
    /** A batch commits once its rows hold this many bytes... */
    static final long BATCH_BYTES = 4 << 20;

    /**
     * ...or when the last batch committed at least this long ago: at most one commit a second
     * however often the build checkpoints, and a slow build's checkpoints are not held back.
     */
    static final long BATCH_MILLIS = 1_000;

    private final DataSource ds;
    private final String jobId;
    private final int attempt;
    private final String worker;
    private Connection connection;
    private StagingCopy batch;
    private long batchBytes;
    /** When the last batch committed; the first checkpoint of an attempt commits at once. */
    private long lastCommitNanos = System.nanoTime() - BATCH_MILLIS * 1_000_000;

    private int batchCheckpoints;
    private long batchRowsRead;
    private int seq;
    private int checkpoints;
    private int batches;
    private volatile boolean givenUp;

    StagedCheckpoints(DataSource ds, String jobId, int attempt, String worker) {
        this.ds = ds;
        this.jobId = jobId;
        this.attempt = attempt;
        this.worker = worker;
    }

    /**
     * Adds one checkpoint to the open batch (opening one if none is), and commits the batch when
     * it is big or old enough and the attempt still owns the job.
     *
     * @throws IllegalStateException when the attempt was given up or the jobs database cannot be
     *     written: the scratch build stops, and the open batch is not there
     */
    @Override
    public synchronized void committed(List<byte[]> keys, List<byte[]> values, long snapshotRowsRead) {
        if (givenUp) {
            throw new IllegalStateException("the attempt was given up");
        }
        try {
            if (batch == null) {
                open();
            }
            for (int i = 0; i < keys.size(); i++) {
                byte[] key = keys.get(i);
                byte[] value = values.get(i);
                batch.row(seq + i, key, value);
                batchBytes += key.length + (value == null ? 0 : value.length);
            }
            seq += keys.size();
            batchCheckpoints++;
            batchRowsRead = snapshotRowsRead;
            if (batchBytes >= BATCH_BYTES || System.nanoTime() - lastCommitNanos >= BATCH_MILLIS * 1_000_000) {
                commitBatch();
            }
        } catch (SQLException e) {
            abandon();
            throw new IllegalStateException("committing checkpoints of job " + jobId + ": " + e.getMessage(), e);
        }
    }

    private void open() throws SQLException {
        if (connection == null) {
            connection = ds.getConnection();
            connection.setAutoCommit(false);
        }
        batch = new StagingCopy(connection, "tributary_job_checkpoints", jobId, attempt);
    }

    private void commitBatch() throws SQLException {
        batch.end();
        if (!StagedResult.owns(connection, jobId, attempt, worker)) {
            abandon();
            givenUp = true;
            throw new IllegalStateException("the attempt was given up");
        }
        try (PreparedStatement ps = connection.prepareStatement(
                "UPDATE tributary_remote_jobs SET rows_done = GREATEST(rows_done, ?) WHERE id = ?")) {
            ps.setLong(1, batchRowsRead);
            ps.setString(2, jobId);
            ps.executeUpdate();
        }
        connection.commit();
        lastCommitNanos = System.nanoTime();
        checkpoints += batchCheckpoints;
        batches++;
        batch = null;
        batchBytes = 0;
        batchCheckpoints = 0;
    }

    /** Drops the open batch (its transaction is rolled back or dead) and the connection with it. */
    private void abandon() {
        batch = null;
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // broken already; the server ends its transaction
            }
            connection = null;
        }
    }

    /**
     * Commits the open batch, if any: called when the build ended, so every checkpoint it took is
     * committed before its state is read out.
     *
     * @throws SQLException when the jobs database cannot be written
     */
    synchronized void flush() throws SQLException {
        if (batch != null && !givenUp) {
            try {
                commitBatch();
            } catch (SQLException e) {
                abandon();
                throw e;
            } catch (IllegalStateException e) {
                // given up meanwhile: givenUp() says so, and the caller stages nothing more
            }
        }
    }

    /** Whether a checkpoint found the attempt given up. */
    boolean givenUp() {
        return givenUp;
    }

    /** How many checkpoints this attempt committed. */
    synchronized int count() {
        return checkpoints;
    }

    /** In how many transactions. */
    synchronized int batches() {
        return batches;
    }

    /** Rolls back an open batch and releases the connection. */
    @Override
    public synchronized void close() {
        abandon();
    }
}
