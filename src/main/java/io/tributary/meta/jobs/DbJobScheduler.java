package io.tributary.meta.jobs;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The remote scheduler: queues jobs with db-scheduler in the shared jobs database, where {@code
 * tributary worker} processes pick them ({@code FOR UPDATE SKIP LOCKED}), heartbeat them, and
 * revive each other's dead executions. Each job's row in {@code tributary_remote_jobs} is committed
 * before it is queued, and its id comes from the Tributary catalog, so after a restart {@link
 * #schedule} finds the row and re-attaches.
 *
 * <p>A watcher thread hears finished jobs by {@code LISTEN tributary_jobs}, and polls every half
 * second as the safety net (a NOTIFY sent while the server was down is lost; the row is not). It
 * also falls a job back to local execution when it allows that and no live worker has been seen
 * for {@link #fallbackAfterMillis}: the queued task is deleted and the row marked {@code local} in
 * one transaction, so a worker that comes later does not pick it, and a worker still writing is
 * fenced out by the job's own checkpoint check in the target.
 *
 * <p>Its short calls (scheduling, giving up, progress reads, the system tables, housekeeping) and
 * db-scheduler's client take pooled connections ({@link JobsConnections#pooled}); the watcher's
 * {@code LISTEN} and the bulk reads of a job's result or checkpoints open connections of their own
 * ({@link JobsConnections#dedicated}). {@link #close} shuts the pool down.
 */
public final class DbJobScheduler implements RemoteJobScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(DbJobScheduler.class);

    /** How often the watcher removes what cancelled jobs left in the jobs database. */
    private static final long SWEEP_MILLIS = 60_000;

    /**
     * How long a finished job's staged result is kept when no owner here waits for it: its owner
     * reads it as soon as it hears of the end (at the latest when it re-attaches at start), and
     * removes it after taking it over.
     */
    private static final long DONE_KEPT_MILLIS = 600_000;

    private final JobsConnections connections;
    /** {@link #connections}' pool: every call here but the watcher's LISTEN and the bulk reads. */
    private final DataSource ds;

    private final SchedulerClient client;
    private final LocalJobScheduler local;
    private final long fallbackAfterMillis;
    private final Map<JobId, Watched> watched = new ConcurrentHashMap<>();
    private final Map<JobId, String> placements = new ConcurrentHashMap<>();
    private final Thread watcher;
    private volatile boolean closed;

    /** A job this server waits for. Fields are touched by the watcher thread only, after creation. */
    private static final class Watched {
        final RemoteJob job;
        final Notifier notifier;
        final boolean fallback;
        long noWorkerSince;

        Watched(RemoteJob job, Notifier notifier, boolean fallback) {
            this.job = job;
            this.notifier = notifier;
            this.fallback = fallback;
        }
    }

    /**
     * Connects to the jobs database and creates its tables when missing. Owns {@code connections}
     * from here on: closes them when this fails or is closed.
     *
     * @param local where jobs fall back to
     * @param fallbackAfterMillis how long a job may wait without any live worker before it falls back
     * @throws SQLException when the jobs database cannot be reached
     */
    public DbJobScheduler(JobsConnections connections, LocalJobScheduler local, long fallbackAfterMillis)
            throws SQLException {
        this.connections = connections;
        this.ds = connections.pooled();
        this.local = local;
        this.fallbackAfterMillis = fallbackAfterMillis;
        try {
            JobsDatabase.prepare(ds);
        } catch (SQLException | RuntimeException e) {
            connections.close();
            throw e;
        }
        sweep(true);
        this.client = SchedulerClient.Builder.create(ds).build();
        this.watcher = new Thread(this::watch, "remote-jobs-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Like {@link #schedule(RemoteJob, Notifier)}, saying whether the job may fall back to local. */
    public JobId schedule(RemoteJob job, Notifier notifier, boolean fallback) throws ScheduleFailedException {
        boolean cancelled;
        String state = null;
        boolean attach;
        // the row's connection goes back to the pool before db-scheduler's client takes one: a
        // thread holding one pooled connection while waiting for another could starve the pool
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            int format = RemoteJob.FORMAT_VERSION;
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT state, format_version FROM tributary_remote_jobs WHERE id = ? FOR UPDATE")) {
                ps.setString(1, job.id().value());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        state = rs.getString(1);
                        format = rs.getInt(2);
                    }
                }
            }
            // a job a server of another format queued is queued again in this one's (its task
            // name differs, so no worker of this format would pick the old one); it resumes from
            // the position its target holds
            boolean sameFormat = format == RemoteJob.FORMAT_VERSION;
            attach = "done".equals(state) || (sameFormat && ("waiting".equals(state) || "running".equals(state)));
            // cancelled by CANCEL JOBS: stays so; the watcher tells the owner
            cancelled = "cancelled".equals(state);
            if (!attach && !cancelled) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO tributary_remote_jobs (id, kind, owner,"
                        + " format_version, payload, state) VALUES (?, ?, ?, ?, ?, 'waiting') ON CONFLICT (id) DO UPDATE"
                        + " SET payload = EXCLUDED.payload, format_version = EXCLUDED.format_version,"
                        + " state = 'waiting', worker = NULL, finished = NULL, last_error = NULL")) {
                    ps.setString(1, job.id().value());
                    ps.setString(2, job.kind());
                    ps.setString(3, job.owner());
                    ps.setInt(4, RemoteJob.FORMAT_VERSION);
                    ps.setBytes(5, job.payload());
                    ps.executeUpdate();
                }
            }
            if (!sameFormat) {
                try (PreparedStatement ps =
                        c.prepareStatement("DELETE FROM scheduled_tasks WHERE task_instance = ? AND task_name <> ?")) {
                    ps.setString(1, job.id().value());
                    ps.setString(2, JobsDatabase.TASK);
                    ps.executeUpdate();
                }
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            throw new ScheduleFailedException(job, "could not queue job " + job.id() + ": " + e.getMessage(), e);
        }
        try {
            if (!"done".equals(state) && !cancelled) {
                client.scheduleIfNotExists(
                        new TaskInstance<>(
                                JobsDatabase.TASK, job.id().value(), job.id().value()),
                        Instant.now());
            }
            if (attach) {
                LOG.info("re-attached to remote job {} ({})", job.id(), state);
            }
        } catch (RuntimeException e) {
            throw new ScheduleFailedException(job, "could not queue job " + job.id() + ": " + e.getMessage(), e);
        }
        if (!cancelled) {
            placements.put(job.id(), "waiting for a worker");
        }
        watched.put(job.id(), new Watched(job, notifier, fallback));
        return job.id();
    }

    /**
     * Reads, in order, the key-value pairs attempt {@code attempt} of job {@code id} staged with its
     * result (see {@link JobPlacement#readResult}). Any thread.
     *
     * @throws SQLException when the jobs database cannot be read
     */
    void readResult(JobId id, int attempt, JobPlacement.PairConsumer out) throws SQLException {
        // a connection of its own: a takeover reads for as long as the state is big
        JobsDatabase.readPairs(
                connections.dedicated(),
                "SELECT k, v FROM tributary_job_results WHERE job_id = ? AND attempt = ? ORDER BY seq",
                id.value(),
                attempt,
                out);
    }

    /** See {@link JobPlacement#readCheckpoint}. Any thread. */
    void readCheckpoint(JobId id, JobPlacement.PairConsumer out) throws SQLException {
        JobsDatabase.readCheckpoints(connections.dedicated(), id.value(), Integer.MAX_VALUE, out);
    }

    /**
     * The job's {@code rows_done}: snapshot rows its committed checkpoint batches have read, which
     * each batch raises in its own transaction and nothing lowers (a new attempt resumes from those
     * checkpoints); 0 when the job has no row or the jobs database cannot be read. Any thread.
     */
    long rowsDone(JobId id) {
        long now = System.nanoTime();
        long[] known = rowsDone.get(id);
        if (known != null && now - known[1] < ROWS_DONE_MAX_AGE_NANOS) {
            return known[0];
        }
        long rows;
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT rows_done FROM tributary_remote_jobs WHERE id = ?")) {
            ps.setString(1, id.value());
            try (ResultSet rs = ps.executeQuery()) {
                rows = rs.next() ? rs.getLong(1) : 0;
            }
        } catch (SQLException e) {
            LOG.warn("could not read the progress of job {}: {}", id, e.getMessage());
            return known == null ? 0 : known[0];
        }
        // two readers racing: the later answer never replaces a higher one
        return rowsDone.merge(id, new long[] {rows, now}, (a, b) -> b[0] >= a[0] ? b : new long[] {a[0], b[1]})[0];
    }

    /**
     * How long a job's {@code rows_done} as read is given again instead of read anew: {@code
     * ddl_progress} and SHOW JOBS may be polled many times a second (a client waiting for a view),
     * and each fresh read is a query to the jobs database on the server's CPU, which the remote
     * placement exists to spare; checkpoint batches raise it at most once a second anyway.
     */
    private static final long ROWS_DONE_MAX_AGE_NANOS = 1_000_000_000L;

    /** Per job: its {@code rows_done} as last read, and when ({@link System#nanoTime}). */
    private final Map<JobId, long[]> rowsDone = new ConcurrentHashMap<>();

    /** Removes what every attempt of job {@code id} staged with its result or checkpoints; any thread, best effort. */
    void dropResult(JobId id) {
        rowsDone.remove(id);
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("DELETE FROM tributary_job_results WHERE job_id = ?");
                PreparedStatement cp = c.prepareStatement("DELETE FROM tributary_job_checkpoints WHERE job_id = ?")) {
            ps.setString(1, id.value());
            ps.executeUpdate();
            cp.setString(1, id.value());
            cp.executeUpdate();
        } catch (SQLException e) {
            LOG.warn("could not remove the staged result of job {}: {}", id, e.getMessage());
        }
    }

    /**
     * Housekeeping, at start and every {@link #SWEEP_MILLIS} on the watcher thread: removes the
     * staged results and checkpoints of jobs that can never be read again. At start: jobs whose
     * row says {@code cancelled} (a cancel is final, its owner reads nothing of it) and jobs with
     * no row. Later, once this server's databases have re-attached to their jobs, also jobs
     * {@code done} for {@link #DONE_KEPT_MILLIS} that this server does not wait for: their owner
     * took the result over (or is gone) and died before removing it. Covers a server that died
     * between giving a job up or taking its result over and removing what it staged, which
     * {@link #dropResult} does best effort. Best effort itself.
     */
    private void sweep(boolean startup) {
        String[] waitedFor = watched.keySet().stream().map(JobId::value).toArray(String[]::new);
        try (Connection c = ds.getConnection()) {
            int removed = 0;
            for (String table : List.of("tributary_job_results", "tributary_job_checkpoints")) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " x WHERE NOT EXISTS (SELECT 1"
                        + " FROM tributary_remote_jobs j WHERE j.id = x.job_id AND j.state <> 'cancelled' AND NOT (?"
                        + " AND j.state = 'done' AND j.finished < now() - ? * interval '1 millisecond'"
                        + " AND j.id <> ALL (?)))")) {
                    ps.setBoolean(1, !startup);
                    ps.setLong(2, DONE_KEPT_MILLIS);
                    ps.setArray(3, c.createArrayOf("text", waitedFor));
                    removed += ps.executeUpdate();
                }
            }
            if (removed > 0) {
                LOG.info("removed {} staged rows of finished, cancelled or unknown remote jobs", removed);
            }
        } catch (SQLException e) {
            LOG.warn("could not remove the staged rows of finished remote jobs: {}", e.getMessage());
        }
    }

    /** See {@link JobPlacement#advertise}. */
    void advertise(String serverAddress) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE tributary_jobs_format SET server_address = ?")) {
            ps.setString(1, serverAddress);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new io.tributary.common.TributaryException(
                    io.tributary.common.SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION,
                    "could not advertise this server in the jobs database: " + e.getMessage(),
                    e);
        }
    }

    @Override
    public JobId schedule(RemoteJob job, Notifier notifier) throws ScheduleFailedException {
        return schedule(job, notifier, true);
    }

    /** Marks the row {@code cancelled}, which {@link #schedule} keeps. */
    @Override
    public void cancel(JobId id) {
        giveUp(id, "cancelled");
    }

    /** Marks the row {@code stopped}, which {@link #schedule} queues again. */
    @Override
    public void stop(JobId id) {
        giveUp(id, "stopped");
    }

    private void giveUp(JobId id, String state) {
        watched.remove(id);
        placements.remove(id);
        local.cancel(id);
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            giveUp(c, id, state);
            c.commit();
        } catch (SQLException e) {
            LOG.warn("could not give up remote job {} ({}): {}", id, state, e.getMessage());
        }
    }

    /**
     * Marks the job given up ({@code state}) and removes its queued task; the caller commits. A
     * stopped job (its owner dropping it) can still be cancelled, when the drop has committed.
     */
    private static void giveUp(Connection c, JobId id, String state) throws SQLException {
        if (state.equals("cancelled")) {
            // final: nothing staged by any attempt is read again
            for (String table : List.of("tributary_job_results", "tributary_job_checkpoints")) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE job_id = ?")) {
                    ps.setString(1, id.value());
                    ps.executeUpdate();
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE tributary_remote_jobs SET state = ?, worker = NULL"
                + " WHERE id = ? AND state IN ('waiting', 'running', 'local'"
                + (state.equals("cancelled") ? ", 'stopped'" : "") + ")")) {
            ps.setString(1, state);
            ps.setString(2, id.value());
            ps.executeUpdate();
        }
        try (PreparedStatement ps =
                c.prepareStatement("DELETE FROM scheduled_tasks WHERE task_name = ? AND task_instance = ?")) {
            ps.setString(1, JobsDatabase.TASK);
            ps.setString(2, id.value());
            ps.executeUpdate();
        }
    }

    @Override
    public String placement(JobId id) {
        return placements.get(id);
    }

    @Override
    public List<RemoteJobInfo> jobs() {
        List<RemoteJobInfo> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, kind, owner, worker, state, attempts, started, finished,"
                        + " last_error FROM tributary_remote_jobs ORDER BY id")) {
            while (rs.next()) {
                out.add(new RemoteJobInfo(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getInt(6),
                        millis(rs.getTimestamp(7)),
                        millis(rs.getTimestamp(8)),
                        rs.getString(9)));
            }
        } catch (SQLException e) {
            LOG.warn("could not read the remote jobs: {}", e.getMessage());
        }
        return out;
    }

    @Override
    public List<WorkerInfo> workers() {
        List<WorkerInfo> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT name, address, slots, running_jobs, last_heartbeat"
                        + " FROM tributary_workers ORDER BY name")) {
            while (rs.next()) {
                out.add(new WorkerInfo(
                        rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), millis(rs.getTimestamp(5))));
            }
        } catch (SQLException e) {
            LOG.warn("could not read the workers: {}", e.getMessage());
        }
        return out;
    }

    private static long millis(Timestamp t) {
        return t == null ? 0 : t.getTime();
    }

    /** Watcher thread: LISTEN for finished jobs, poll as the net, fall back when no worker lives. */
    private void watch() {
        Connection listen = null;
        long lastSweep = System.nanoTime();
        while (!closed) {
            try {
                if (listen == null) {
                    // not pooled: LISTEN belongs to the session, which must stay this thread's
                    listen = connections.dedicated().getConnection();
                    try (Statement s = listen.createStatement()) {
                        s.execute("LISTEN " + JobsDatabase.CHANNEL);
                    }
                }
                // waits for a NOTIFY up to the polling interval; either way every watched job is checked
                listen.unwrap(PGConnection.class).getNotifications(500);
                if (System.nanoTime() - lastSweep > SWEEP_MILLIS * 1_000_000) {
                    sweep(false);
                    lastSweep = System.nanoTime();
                }
                if (!watched.isEmpty()) {
                    poll(listen);
                }
            } catch (SQLException | RuntimeException e) {
                LOG.warn("jobs database: {}; retrying", e.getMessage());
                closeQuietly(listen);
                listen = null;
                sleep(1_000);
            }
        }
        closeQuietly(listen);
    }

    private void poll(Connection c) throws SQLException {
        int liveWorkers;
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM tributary_workers WHERE format_version = ?"
                + " AND last_heartbeat > now() - ? * interval '1 millisecond'")) {
            ps.setInt(1, RemoteJob.FORMAT_VERSION);
            ps.setLong(2, JobsDatabase.WORKER_TIMEOUT_MILLIS);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                liveWorkers = rs.getInt(1);
            }
        }
        long now = System.currentTimeMillis();
        for (Watched w : List.copyOf(watched.values())) {
            JobId id = w.job.id();
            String state;
            String worker;
            int attempts;
            String error;
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT state, worker, attempts, last_error FROM tributary_remote_jobs WHERE id = ?")) {
                ps.setString(1, id.value());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        continue;
                    }
                    state = rs.getString(1);
                    worker = rs.getString(2);
                    attempts = rs.getInt(3);
                    error = rs.getString(4);
                }
            }
            switch (state) {
                case "done", "failed" -> {
                    if (watched.remove(id, w)) {
                        placements.remove(id);
                        w.notifier.notify(
                                new JobResult(id, attempts, "remote:" + worker, state.equals("done") ? null : error));
                    }
                }
                case "waiting", "running" -> {
                    placements.put(
                            id,
                            state.equals("running") && worker != null ? "remote:" + worker : "waiting for a worker");
                    if (liveWorkers > 0) {
                        w.noWorkerSince = 0;
                    } else if (w.noWorkerSince == 0) {
                        w.noWorkerSince = now;
                    } else if (w.fallback && now - w.noWorkerSince >= fallbackAfterMillis) {
                        fallBack(w);
                    }
                }
                case "cancelled" -> {
                    // found so at scheduling (a restart after CANCEL JOBS): the owner hears it once
                    if (watched.remove(id, w)) {
                        w.notifier.notify(new JobResult(id, attempts, "remote:" + worker, JobResult.CANCELLED));
                    }
                }
                default -> {
                    // given up (stopped, or run locally): nothing to wait for
                    watched.remove(id, w);
                }
            }
        }
    }

    /** No worker lives: takes the job back from the queue and runs it here. */
    private void fallBack(Watched w) throws SQLException {
        JobId id = w.job.id();
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            giveUp(c, id, "local");
            c.commit();
        }
        if (!watched.remove(id, w)) {
            return;
        }
        LOG.info("no worker for job {} in {} ms: running it locally", id, fallbackAfterMillis);
        placements.put(id, "local");
        local.schedule(w.job, result -> {
            placements.remove(id);
            w.notifier.notify(result);
        });
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already broken
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        watcher.interrupt();
        try {
            watcher.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        local.close();
        connections.close();
    }
}
