package io.tributary.worker;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.ScratchViewBuild;
import io.tributary.meta.ddl.ViewSnapshotJob;
import io.tributary.meta.jobs.JobsConnections;
import io.tributary.meta.jobs.JobsDatabase;
import io.tributary.meta.jobs.RemoteJob;
import io.tributary.meta.sink.SinkBackfillJob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code tributary worker}: runs remote jobs from the shared jobs database. db-scheduler picks them
 * ({@code FOR UPDATE SKIP LOCKED}), keeps a heartbeat on each running one every {@link
 * #HEARTBEAT} from its own housekeeping thread (which runs no job), and revives the executions of a
 * worker whose heartbeats stopped for {@link #MISSED_HEARTBEATS} intervals, so another worker
 * resumes them from their last checkpoint. This worker also keeps its own row in {@code
 * tributary_workers} alive for the server (which falls jobs back to local when none lives).
 *
 * <p>Each attempt claims the job's row (state {@code running}, attempts + 1) and finishes it only
 * if it is still that attempt ({@code UPDATE ... WHERE attempts = mine}): a late result from an
 * attempt that was given up is ignored. Uses no storage: it reads snapshots from the server over
 * pgwire and writes targets itself.
 *
 * <p>Its short calls to the jobs database (heartbeats, claims, the per-piece ownership check,
 * db-scheduler's polling and heartbeats) take pooled connections; an attempt's staging and its
 * reads of earlier attempts' checkpoints open connections of their own ({@link JobsConnections}),
 * held for the attempt or the read, so they never keep a heartbeat waiting for the pool.
 */
public final class JobWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JobWorker.class);

    /**
     * How often a running execution's heartbeat is written. Each one is a short UPDATE over a pooled
     * connection; every 2 s is cheap for the jobs database with a handful of workers.
     */
    static final Duration HEARTBEAT = Duration.ofSeconds(2);

    /**
     * Heartbeats an execution may miss before another worker takes it over: 2 s × 10 = 20 s. At
     * 1 s × 4 a worker on a machine at load 45–84 (two cores) missed the limit while alive (a
     * starved JVM, a young collection under {@code -Xmx128m}) and its jobs restarted again and
     * again. 20 s rides that out; a worker really killed costs 20 s before its job moves, and the
     * job then goes on from its last checkpoint, not from the start.
     */
    static final int MISSED_HEARTBEATS = 10;

    private final JobsConnections connections;
    /** {@link #connections}' pool, for the short calls. */
    private final DataSource ds;

    private final String name;
    private final int slots;
    private final String serverPassword;
    /** Opens a scratch database in a directory, for views' snapshot phases; null: this worker runs none. */
    private final ScratchViewBuild.Opener scratch;

    private final AtomicInteger running = new AtomicInteger();

    /**
     * Open once the warm-up has ended. View jobs wait for it rather than plan beside it: two
     * threads first touching the planner's classes at once gain nothing (one waits for the
     * other's class initialisation) and risk a class-initialisation deadlock, which no timeout
     * or interrupt ends.
     */
    private final java.util.concurrent.CountDownLatch warmedUp = new java.util.concurrent.CountDownLatch(1);

    private final Scheduler scheduler;
    private final Thread heartbeat;
    private volatile boolean closed;

    /**
     * Connects to the jobs database and checks its job format. Owns {@code connections} from here
     * on: closes them when this fails or is closed.
     *
     * @param scratch opens the scratch database a view's snapshot phase is computed in (null: this
     *     worker refuses such jobs, which then fall back to the server when they may)
     * @throws TributaryException 0A000 when the server schedules another job format than this
     *     worker runs; 08001 when the jobs database cannot be reached
     */
    public JobWorker(
            JobsConnections connections,
            String name,
            int slots,
            String serverPassword,
            ScratchViewBuild.Opener scratch) {
        this.connections = connections;
        this.ds = connections.pooled();
        this.scratch = scratch;
        this.name = name;
        this.slots = slots;
        this.serverPassword = serverPassword;
        try {
            checkFormat();
        } catch (RuntimeException e) {
            connections.close();
            throw e;
        }
        OneTimeTask<String> task = Tasks.oneTime(JobsDatabase.TASK, String.class)
                .onFailure(new FailureHandler.OnFailureRetryLater<>(Duration.ofSeconds(1)))
                .execute((instance, ctx) -> execute(instance));
        this.scheduler = Scheduler.create(ds, task)
                .schedulerName(new SchedulerName.Fixed(name))
                .threads(slots)
                .pollingInterval(Duration.ofMillis(500))
                .heartbeatInterval(HEARTBEAT)
                .missedHeartbeatsLimit(MISSED_HEARTBEATS)
                .pollUsingLockAndFetch(0.5, 1.0)
                .build();
        this.heartbeat = new Thread(this::beat, "worker-heartbeat");
        heartbeat.setDaemon(true);
    }

    private void checkFormat() {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT format_version FROM tributary_jobs_format")) {
            if (rs.next() && rs.getInt(1) != RemoteJob.FORMAT_VERSION) {
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "the server schedules jobs of format " + rs.getInt(1) + " and this worker runs format "
                                + RemoteJob.FORMAT_VERSION + "; run a worker of the server's version");
            }
        } catch (SQLException e) {
            throw new TributaryException(
                    SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION,
                    "the jobs database is not ready (start a server with --jobs-url first): " + e.getMessage(),
                    e);
        }
    }

    /**
     * Registers this worker and starts picking jobs; meanwhile a thread of its own warms it up for
     * views ({@link #warmUp}). A sink backfill starts at once; a view job waits for the warm-up
     * to end, which it would otherwise pay for itself.
     */
    public void start() {
        beatOnce();
        heartbeat.start();
        Thread warming = new Thread(this::warmUp, "worker-warm-up");
        warming.setDaemon(true);
        warming.start();
        scheduler.start();
        LOG.info("worker {} runs up to {} job(s)", name, slots);
    }

    /**
     * Removes the scratch directories that killed workers left behind ({@link ScratchDirectory#sweep}),
     * then plans a throw-away view in a scratch database ({@link ScratchViewBuild#warmUp}), so the
     * first view job does not pay for a cold JVM's first planning; then lets view jobs run. A
     * failure is logged, not fatal: sink backfills need none of it, and a view job that cannot be
     * built here fails and falls back to the server.
     */
    private void warmUp() {
        long started = System.nanoTime();
        try {
            sweepScratch();
            if (scratch != null) {
                try (ScratchDirectory dir =
                        ScratchDirectory.create(ScratchDirectory.TEMPORARY, ScratchDirectory.WARM_UP)) {
                    scratch.warmUp(dir.path());
                }
                LOG.info("worker {} warmed up for views in {} ms", name, (System.nanoTime() - started) / 1_000_000);
            }
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("worker {} could not warm up for views: {}", name, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            warmedUp.countDown();
        }
    }

    private void sweepScratch() {
        try {
            java.util.List<java.nio.file.Path> removed = ScratchDirectory.sweep(
                    ScratchDirectory.TEMPORARY, ScratchDirectory.VIEW_JOB, ScratchDirectory.WARM_UP);
            if (!removed.isEmpty()) {
                LOG.info("worker {} removed {} scratch directories of workers that were killed", name, removed.size());
            }
        } catch (java.io.IOException e) {
            LOG.warn("worker {} could not look for killed workers' scratch directories: {}", name, e.getMessage());
        }
    }

    private void beat() {
        while (!closed) {
            try {
                Thread.sleep(HEARTBEAT.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            beatOnce();
        }
    }

    private void beatOnce() {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO tributary_workers (name, address, slots,"
                        + " running_jobs, format_version, last_heartbeat) VALUES (?, inet_client_addr()::text, ?, ?, ?,"
                        + " now()) ON CONFLICT (name) DO UPDATE SET address = EXCLUDED.address, slots = EXCLUDED.slots,"
                        + " running_jobs = EXCLUDED.running_jobs, format_version = EXCLUDED.format_version,"
                        + " last_heartbeat = now()")) {
            ps.setString(1, name);
            ps.setInt(2, slots);
            ps.setInt(3, running.get());
            ps.setInt(4, RemoteJob.FORMAT_VERSION);
            ps.executeUpdate();
        } catch (SQLException e) {
            LOG.warn("heartbeat to the jobs database failed: {}", e.getMessage());
        }
    }

    /** A db-scheduler thread: one attempt at a job. Throwing makes db-scheduler retry it a second later. */
    private void execute(TaskInstance<String> instance) {
        String id = instance.getId();
        running.incrementAndGet();
        try {
            Claim claim = claim(id);
            if (claim == null) {
                return; // done, cancelled or run locally meanwhile
            }
            try {
                if (run(id, claim)) {
                    finish(id, claim.attempt(), "done", null);
                } else if (stillMine(id, claim.attempt())) {
                    // fenced by the target, not given up: an attempt presumed dead committed a chunk
                    // after this one read the position; a retry (next attempt) resumes from the new one
                    throw new IllegalStateException("another attempt moved the target's position; retrying from it");
                }
            } catch (TributaryException e) {
                if (e.sqlState().equals(SqlState.FEATURE_NOT_SUPPORTED)) {
                    finish(id, claim.attempt(), "failed", e.getMessage());
                    return;
                }
                recordError(id, claim.attempt(), e.getMessage());
                throw e;
            } catch (SQLException | RuntimeException e) {
                recordError(id, claim.attempt(), e.getMessage());
                throw new IllegalStateException("job " + id + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("job " + id + " was interrupted", e);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("jobs database: " + e.getMessage(), e);
        } finally {
            running.decrementAndGet();
        }
    }

    private record Claim(int attempt, String kind, int format, byte[] payload) {}

    private Claim claim(String id) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE tributary_remote_jobs SET state = 'running',"
                        + " worker = ?, attempts = attempts + 1, started = COALESCE(started, now()), last_error = NULL"
                        + " WHERE id = ? AND state IN ('waiting', 'running')"
                        + " RETURNING attempts, kind, format_version, payload")) {
            ps.setString(1, name);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Claim(rs.getInt(1), rs.getString(2), rs.getInt(3), rs.getBytes(4)) : null;
            }
        }
    }

    /**
     * Runs the claimed attempt. A view's snapshot phase stages its state in the jobs database as it
     * goes ({@link StagedResult}); a sink backfill writes its target itself.
     *
     * @return whether it finished; false when it was fenced out or given up
     */
    private boolean run(String id, Claim claim) throws SQLException, InterruptedException {
        if (claim.format() != RemoteJob.FORMAT_VERSION) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "the job is of format " + claim.format() + " and this worker runs format "
                            + RemoteJob.FORMAT_VERSION + "; run a worker of the server's version");
        }
        if (claim.kind().equals(RemoteJob.VIEW_SNAPSHOT) && scratch != null) {
            warmedUp.await();
            ViewSnapshotJob job = ViewSnapshotJob.decode(claim.payload());
            LOG.info(
                    "job {}: computing the snapshot of materialized view {} (attempt {})",
                    id,
                    job.view().name(),
                    claim.attempt());
            DataSource own = connections.dedicated();
            try (StagedCheckpoints checkpoints = new StagedCheckpoints(own, id, claim.attempt(), name);
                    StagedResult result = new StagedResult(own, id, claim.attempt(), name)) {
                return new ViewSnapshotRun(job, serverAddress(), serverPassword, scratch)
                        .run(
                                () -> stillMine(id, claim.attempt()),
                                result,
                                out -> JobsDatabase.readCheckpoints(own, id, claim.attempt(), out),
                                out -> JobsDatabase.readCheckpointKeysOf(
                                        own, id, claim.attempt(), ViewSnapshotJob.POSITIONS_TABLE, out),
                                rows -> recordCopied(id, claim.attempt(), rows),
                                checkpoints,
                                id);
            }
        }
        if (!claim.kind().equals(RemoteJob.SINK_BACKFILL)) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED, "this worker cannot run jobs of kind " + claim.kind());
        }
        SinkBackfillJob job = SinkBackfillJob.decode(claim.payload());
        LOG.info(
                "job {}: copying the snapshot of sink {} (attempt {})",
                id,
                job.sink().name(),
                claim.attempt());
        return new SinkBackfillRun(job, serverAddress(), serverPassword).run(() -> stillMine(id, claim.attempt()));
    }

    /** Where the server serves snapshots, as it last advertised. */
    private String serverAddress() throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT server_address FROM tributary_jobs_format")) {
            if (!rs.next() || rs.getString(1) == null) {
                throw new SQLException("no server has advertised its address in the jobs database yet", "55000");
            }
            return rs.getString(1);
        }
    }

    /** Whether the job is still this attempt's: not cancelled, not fallen back, not taken over. */
    private boolean stillMine(String id, int attempt) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT 1 FROM tributary_remote_jobs WHERE id = ? AND state = 'running' AND attempts = ?"
                                + " AND worker = ?")) {
            ps.setString(1, id);
            ps.setInt(2, attempt);
            ps.setString(3, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("jobs database: " + e.getMessage(), e);
        }
    }

    /**
     * Ends the attempt, if it still owns the job. A view job's state was staged before, under this
     * attempt's number: the server reads it once it sees the attempt done, so it finds it whole.
     */
    private void finish(String id, int attempt, String state, String error) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps =
                    c.prepareStatement("UPDATE tributary_remote_jobs SET state = ?, finished = now(),"
                            + " last_error = ? WHERE id = ? AND attempts = ? AND worker = ? AND state = 'running'")) {
                ps.setString(1, state);
                ps.setString(2, error);
                ps.setString(3, id);
                ps.setInt(4, attempt);
                ps.setString(5, name);
                if (ps.executeUpdate() == 0) {
                    c.rollback();
                    return; // given up meanwhile: the server reads nothing of this attempt
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
                ps.setString(1, JobsDatabase.CHANNEL);
                ps.setString(2, id);
                ps.execute();
            }
            c.commit();
        }
    }

    /**
     * Records in the job's row how many snapshot rows this attempt copied from the server (column
     * {@code rows_copied}), while it still owns the job: what a retried attempt's copy skipped
     * shows there. Best effort: the job does not depend on it.
     */
    private void recordCopied(String id, int attempt, long rows) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("UPDATE tributary_remote_jobs SET rows_copied = ? WHERE id = ?"
                                + " AND attempts = ? AND worker = ? AND state = 'running'")) {
            ps.setLong(1, rows);
            ps.setString(2, id);
            ps.setInt(3, attempt);
            ps.setString(4, name);
            ps.executeUpdate();
        } catch (SQLException e) {
            LOG.warn("could not record the rows job {} copied: {}", id, e.getMessage());
        }
    }

    private void recordError(String id, int attempt, String error) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "UPDATE tributary_remote_jobs SET last_error = ? WHERE id = ? AND attempts = ?")) {
            ps.setString(1, error);
            ps.setString(2, id);
            ps.setInt(3, attempt);
            ps.executeUpdate();
        } catch (SQLException e) {
            LOG.warn("could not record the error of job {}: {}", id, e.getMessage());
        }
    }

    @Override
    public void close() {
        closed = true;
        heartbeat.interrupt();
        scheduler.stop();
        connections.close();
    }
}
