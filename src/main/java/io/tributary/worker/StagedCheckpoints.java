package io.tributary.worker;

import io.tributary.meta.ScratchViewBuild;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * The checkpoints of one attempt at a view's snapshot phase, committed to {@code
 * tributary_job_checkpoints} as the scratch build takes them: checkpoints (state changes and
 * vnode positions together) are gathered for up to {@link #COMMIT_MS} or {@link #COMMIT_BYTES} and
 * committed together in one transaction that first checks the attempt still owns the job, so each
 * is there whole or not at all (a run of whole checkpoints ends at a checkpoint too), and none
 * commits once a later attempt claimed the job or the server gave it up. The scratch build
 * checkpoints every 50 ms; a jobs-database transaction (a new connection) for each would hold it
 * up. Checkpoints gathered but not committed when the attempt ends are lost, as an attempt killed
 * then would lose them. Called on the scratch build's checkpoint threads, one at a time.
 */
final class StagedCheckpoints implements ScratchViewBuild.Checkpoints {
    /** Gathered checkpoints are committed once the oldest is this old, */
    private static final long COMMIT_MS = 1_000;

    /** or once they hold this many bytes. */
    private static final long COMMIT_BYTES = 8 << 20;

    private final DataSource ds;
    private final String jobId;
    private final List<byte[]> keys = new java.util.ArrayList<>();
    private final List<byte[]> values = new java.util.ArrayList<>();
    private long bytes;
    private long firstGathered;
    private int gathered;
    private final int attempt;
    private final String worker;
    private int seq;
    private int checkpoints;
    private volatile boolean givenUp;

    StagedCheckpoints(DataSource ds, String jobId, int attempt, String worker) {
        this.ds = ds;
        this.jobId = jobId;
        this.attempt = attempt;
        this.worker = worker;
    }

    /**
     * Takes one checkpoint, committing it with those gathered before it when it is time.
     *
     * @throws IllegalStateException when the attempt was given up or the jobs database cannot be
     *     written: the scratch build stops, and the gathered checkpoints are not there
     */
    @Override
    public synchronized void committed(List<byte[]> checkpointKeys, List<byte[]> checkpointValues) {
        if (givenUp) {
            throw new IllegalStateException("the attempt was given up");
        }
        if (gathered == 0) {
            firstGathered = System.nanoTime();
        }
        keys.addAll(checkpointKeys);
        values.addAll(checkpointValues);
        for (int i = 0; i < checkpointKeys.size(); i++) {
            byte[] v = checkpointValues.get(i);
            bytes += checkpointKeys.get(i).length + (v == null ? 0 : v.length);
        }
        gathered++;
        if (bytes >= COMMIT_BYTES || System.nanoTime() - firstGathered >= COMMIT_MS * 1_000_000) {
            commit();
        }
    }

    private void commit() {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            if (!StagedResult.owns(c, jobId, attempt, worker)) {
                c.rollback();
                givenUp = true;
                throw new IllegalStateException("the attempt was given up");
            }
            StagedResult.insert(
                    c, "tributary_job_checkpoints", jobId, attempt, seq, keys.size(), keys::get, values::get);
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException("committing a checkpoint of job " + jobId + ": " + e.getMessage(), e);
        }
        seq += keys.size();
        checkpoints += gathered;
        keys.clear();
        values.clear();
        bytes = 0;
        gathered = 0;
    }

    /** Whether a checkpoint found the attempt given up. */
    boolean givenUp() {
        return givenUp;
    }

    /** How many checkpoints this attempt committed (gathered ones not yet committed left out). */
    synchronized int count() {
        return checkpoints;
    }
}
