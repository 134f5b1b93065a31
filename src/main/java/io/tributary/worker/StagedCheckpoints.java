package io.tributary.worker;

import io.tributary.meta.ScratchViewBuild;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * The checkpoints of one attempt at a view's snapshot phase, committed to {@code
 * tributary_job_checkpoints} as the scratch build takes them: each checkpoint (state changes and
 * vnode positions together) in one transaction that first checks the attempt still owns the job, so
 * a checkpoint is there whole or not at all, and none commits once a later attempt claimed the job
 * or the server gave it up. Called on the scratch build's checkpoint threads, one at a time.
 */
final class StagedCheckpoints implements ScratchViewBuild.Checkpoints {
    private final DataSource ds;
    private final String jobId;
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
     * Commits one checkpoint.
     *
     * @throws IllegalStateException when the attempt was given up or the jobs database cannot be
     *     written: the scratch build stops, and the checkpoint is not there
     */
    @Override
    public synchronized void committed(List<byte[]> keys, List<byte[]> values) {
        if (givenUp) {
            throw new IllegalStateException("the attempt was given up");
        }
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
        checkpoints++;
    }

    /** Whether a checkpoint found the attempt given up. */
    boolean givenUp() {
        return givenUp;
    }

    /** How many checkpoints this attempt committed. */
    synchronized int count() {
        return checkpoints;
    }
}
