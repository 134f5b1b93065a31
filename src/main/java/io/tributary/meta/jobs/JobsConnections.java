package io.tributary.meta.jobs;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * One process's connections to the jobs database, in two kinds. {@link #pooled} serves the short
 * calls (a statement or a short transaction, then the connection goes back): heartbeats, claims,
 * ownership checks, progress reads, db-scheduler's polling and heartbeats. It keeps a few
 * connections open because each new PostgreSQL connection forks a backend and authenticates, 10-30
 * ms of CPU on both sides, and these calls come several times a second. {@link #dedicated} opens a
 * connection of its own per call, for what holds one long: the watcher's {@code LISTEN} (a
 * listener must keep its session), an attempt's staging connections (held for the whole attempt)
 * and bulk reads of a job's checkpoints or result. Those open a few times per job, and taking them
 * from the pool would leave the short calls waiting behind them, a worker's heartbeat among them.
 *
 * <p>A caller waiting for a pooled connection waits at most {@link #WAIT_MILLIS}, then gets an
 * {@link SQLTransientConnectionException} that says the pool had none and why the last attempt to
 * open one failed, not a hang. The pool is given the driver's data source, not the URL, so nothing
 * of the URL (its password) reaches the pool's logs. Opened by the server for its {@link
 * DbJobScheduler} and by {@code tributary worker} for its job runner, each of which closes it;
 * {@link #close} shuts the pool down. Thread-safe.
 */
public final class JobsConnections implements AutoCloseable {
    /** How long a short call waits for a pooled connection (or for a new one to open). */
    static final long WAIT_MILLIS = 10_000;

    private final DataSource dedicated;
    private final HikariDataSource pool;
    private final DataSource pooled;

    private JobsConnections(DataSource dedicated, HikariDataSource pool) {
        this.dedicated = dedicated;
        this.pool = pool;
        this.pooled = new ExplainedPool(pool);
    }

    /**
     * Connects to the jobs database at {@code url}: opens the first of a pool of {@code poolSize}
     * connections for short calls, the rest in the background.
     *
     * @param poolName names the pool's threads and log lines
     * @throws io.tributary.common.TributaryException 22023 for a URL that is not PostgreSQL's
     * @throws SQLException when the jobs database cannot be reached (the driver's error)
     */
    public static JobsConnections open(String url, String applicationName, String poolName, int poolSize)
            throws SQLException {
        return over(JobsDatabase.dataSource(url, applicationName), poolName, poolSize);
    }

    /** Like {@link #open}, over the driver's data source {@code dedicated} (tests count its connections). */
    public static JobsConnections over(DataSource dedicated, String poolName, int poolSize) throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setDataSource(dedicated);
        config.setPoolName(poolName);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        config.setConnectionTimeout(WAIT_MILLIS);
        // one try at construction: an unreachable database fails at start with the driver's own
        // error at once, not with the pool's timeout after WAIT_MILLIS
        config.setInitializationFailTimeout(1);
        try {
            return new JobsConnections(dedicated, new HikariDataSource(config));
        } catch (HikariPool.PoolInitializationException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw cause;
            }
            throw new SQLException(e.getMessage(), "08001", e);
        }
    }

    /** For short calls: return the connection (close it) as soon as the call is done. */
    public DataSource pooled() {
        return pooled;
    }

    /** A new connection per {@code getConnection}, for a listener, an attempt's staging or a bulk read. */
    public DataSource dedicated() {
        return dedicated;
    }

    /** Closes the pool's connections; a connection borrowed now is closed when returned. */
    @Override
    public void close() {
        pool.close();
    }

    /**
     * The pool, whose timeout says why no connection could be opened: the pool's own message only
     * counts connections ({@code total=0, active=0, ...}) and keeps the driver's last error as its
     * cause, which the callers' one-line logs would not show.
     */
    private static final class ExplainedPool implements DataSource {
        private final HikariDataSource pool;

        ExplainedPool(HikariDataSource pool) {
            this.pool = pool;
        }

        @Override
        public Connection getConnection() throws SQLException {
            try {
                return pool.getConnection();
            } catch (SQLTransientConnectionException e) {
                throw explained(e);
            }
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            try {
                return pool.getConnection(user, password);
            } catch (SQLTransientConnectionException e) {
                throw explained(e);
            }
        }

        private static SQLException explained(SQLTransientConnectionException e) {
            if (e.getCause() == null) {
                return e;
            }
            return new SQLTransientConnectionException(
                    e.getMessage() + "; the last connection attempt failed: "
                            + e.getCause().getMessage(),
                    e.getSQLState(),
                    e);
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return pool.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            pool.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            pool.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return pool.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return pool.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            return type.isInstance(this) ? type.cast(this) : pool.unwrap(type);
        }

        @Override
        public boolean isWrapperFor(Class<?> type) throws SQLException {
            return type.isInstance(this) || pool.isWrapperFor(type);
        }
    }
}
