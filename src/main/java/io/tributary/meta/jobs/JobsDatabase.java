package io.tributary.meta.jobs;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The shared PostgreSQL that coordinates the server and its workers: db-scheduler's queue table
 * {@code scheduled_tasks}, and Tributary's {@code tributary_remote_jobs} (one row per job: its
 * state, attempts, worker and payload), {@code tributary_workers} (heartbeats) and {@code
 * tributary_jobs_format} (the job format the server speaks, and where it serves snapshots). Both sides create what is missing at
 * start, under an advisory lock so they do not race. Stateless helpers; any thread.
 */
public final class JobsDatabase {
    /** db-scheduler's task name: one per job format version, so a worker of another format never picks a job. */
    public static final String TASK = "tributary-job-v" + RemoteJob.FORMAT_VERSION;

    /** The LISTEN/NOTIFY channel on which workers announce a finished job (payload: its id). */
    public static final String CHANNEL = "tributary_jobs";

    /**
     * A worker whose heartbeat is older than this is gone (and its jobs may fall back to the
     * server). Workers beat every 2 s from a thread that runs no job; 20 s is the same window
     * db-scheduler gives a running execution before another worker takes it over, so a starved
     * but living worker is not given up by either.
     */
    public static final long WORKER_TIMEOUT_MILLIS = 20_000;

    private static final Pattern SECRET = Pattern.compile("(?i)(password=)[^&]*");
    private static final Pattern USER_INFO = Pattern.compile("//[^/@]*@");

    private JobsDatabase() {}

    /**
     * A data source for {@code url} ({@code jdbc:postgresql://...}); the user and password may be in
     * the URL or in {@code PGUSER}/{@code PGPASSWORD}-style environment variables the driver reads.
     *
     * @throws TributaryException 22023 for a URL that is not PostgreSQL's
     */
    public static DataSource dataSource(String url, String applicationName) {
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "--jobs-url must be a PostgreSQL URL (jdbc:postgresql://host:port/database), not " + mask(url));
        }
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setUrl(url);
        ds.setApplicationName(applicationName);
        ds.setConnectTimeout(10);
        return ds;
    }

    /** The URL with its password (and any user:password@ part) hidden, for logs and errors. */
    public static String mask(String url) {
        return USER_INFO.matcher(SECRET.matcher(url).replaceAll("$1***")).replaceAll("//***@");
    }

    /**
     * Feeds {@code out}, in commit order, the changes of every checkpoint attempts before {@code
     * beforeAttempt} of job {@code jobId} committed (values null for deletions). An attempt's
     * checkpoints commit only while it owns the job, so once a later attempt claimed it (or the
     * server gave it up) this set no longer changes. Any thread.
     *
     * @throws SQLException when the jobs database cannot be read
     */
    public static void readCheckpoints(DataSource ds, String jobId, int beforeAttempt, JobPlacement.PairConsumer out)
            throws SQLException {
        readPairs(
                ds,
                "SELECT k, v FROM tributary_job_checkpoints WHERE job_id = ? AND attempt < ? ORDER BY attempt, seq",
                jobId,
                beforeAttempt,
                out);
    }

    /**
     * Like {@link #readCheckpoints}, only the changes to keys of table {@code table} (a view job's
     * vnode positions), so a retried attempt learns where its checkpoint stands without reading
     * the state twice. Any thread.
     *
     * @throws SQLException when the jobs database cannot be read
     */
    public static void readCheckpointKeysOf(
            DataSource ds, String jobId, int beforeAttempt, int table, JobPlacement.PairConsumer out)
            throws SQLException {
        String prefix = java.util.HexFormat.of()
                .formatHex(java.nio.ByteBuffer.allocate(4).putInt(table).array());
        readPairs(
                ds,
                "SELECT k, v FROM tributary_job_checkpoints WHERE job_id = ? AND attempt < ?"
                        + " AND substr(k, 1, 4) = '\\x" + prefix + "'::bytea ORDER BY attempt, seq",
                jobId,
                beforeAttempt,
                out);
    }

    /** Runs {@code sql} (parameters: a job id and an attempt), feeding each row's two bytea columns to {@code out}. */
    static void readPairs(DataSource ds, String sql, String jobId, int attempt, JobPlacement.PairConsumer out)
            throws SQLException {
        try (Connection c = ds.getConnection()) {
            // a fetch size reads in pieces only inside a transaction
            c.setAutoCommit(false);
            try (java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setFetchSize(10_000);
                // binary transfer from the first execution: bytea arrives as its bytes, not as hex
                // text for the driver to decode (a view's state is read through here by the server)
                ps.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(-1);
                ps.setString(1, jobId);
                ps.setInt(2, attempt);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.accept(rs.getBytes(1), rs.getBytes(2));
                    }
                }
            }
            c.commit();
        }
    }

    /** Creates the tables when missing and records this server's job format. Called by the server at start. */
    public static void prepare(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("SELECT pg_advisory_xact_lock(1414680898, 1)");
            s.execute(
                    "CREATE TABLE IF NOT EXISTS scheduled_tasks (task_name text NOT NULL, task_instance text NOT NULL,"
                            + " task_data bytea, execution_time timestamptz NOT NULL, picked boolean NOT NULL, picked_by text,"
                            + " last_success timestamptz, last_failure timestamptz, consecutive_failures int,"
                            + " last_heartbeat timestamptz, version bigint NOT NULL, priority smallint,"
                            + " PRIMARY KEY (task_name, task_instance))");
            s.execute("CREATE INDEX IF NOT EXISTS execution_time_idx ON scheduled_tasks (execution_time)");
            s.execute("CREATE INDEX IF NOT EXISTS last_heartbeat_idx ON scheduled_tasks (last_heartbeat)");
            s.execute("CREATE TABLE IF NOT EXISTS tributary_remote_jobs (id text PRIMARY KEY, kind text NOT NULL,"
                    + " owner text NOT NULL, format_version int NOT NULL, payload bytea NOT NULL,"
                    + " state text NOT NULL, worker text, attempts int NOT NULL DEFAULT 0, started timestamptz,"
                    + " finished timestamptz, last_error text)");
            // snapshot rows a view job's committed checkpoints have read: raised (never lowered) by
            // each checkpoint batch, read by the server for ddl_progress while the job is on a worker
            s.execute("ALTER TABLE tributary_remote_jobs ADD COLUMN IF NOT EXISTS rows_done bigint NOT NULL DEFAULT 0");
            // snapshot rows the latest attempt of a view job copied from the server: a retried
            // attempt copies only the rows after its checkpoint's positions (set by the worker)
            s.execute("ALTER TABLE tributary_remote_jobs ADD COLUMN IF NOT EXISTS rows_copied bigint");
            s.execute("CREATE TABLE IF NOT EXISTS tributary_workers (name text PRIMARY KEY, address text,"
                    + " slots int NOT NULL, running_jobs int NOT NULL DEFAULT 0, format_version int NOT NULL,"
                    + " last_heartbeat timestamptz NOT NULL)");
            // what a job hands back besides its end (a view's snapshot state): staged by the attempt
            // in the transaction that marks it done, read and removed by the server
            s.execute("CREATE TABLE IF NOT EXISTS tributary_job_results (job_id text NOT NULL, attempt int NOT NULL,"
                    + " seq int NOT NULL, k bytea NOT NULL, v bytea NOT NULL, PRIMARY KEY (job_id, attempt, seq))");
            // a view job's checkpoints: each row one change (v NULL: a deletion) of the view's state
            // or vnode positions; an attempt commits each checkpoint whole in one transaction, and
            // the next attempt (or the server's fallback) replays all of them in (attempt, seq) order
            s.execute(
                    "CREATE TABLE IF NOT EXISTS tributary_job_checkpoints (job_id text NOT NULL, attempt int NOT NULL,"
                            + " seq int NOT NULL, k bytea NOT NULL, v bytea, PRIMARY KEY (job_id, attempt, seq))");
            s.execute("CREATE TABLE IF NOT EXISTS tributary_jobs_format (one boolean PRIMARY KEY DEFAULT true"
                    + " CHECK (one), format_version int NOT NULL, server_address text)");
            s.execute("INSERT INTO tributary_jobs_format (format_version) VALUES (" + RemoteJob.FORMAT_VERSION
                    + ") ON CONFLICT (one) DO UPDATE SET format_version = EXCLUDED.format_version");
            c.commit();
        }
    }
}
