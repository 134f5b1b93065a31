package io.tributary.cli;

import io.tributary.catalog.Catalog;
import io.tributary.common.BackgroundPriority;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.connector.BuiltinConnectors;
import io.tributary.meta.Cluster;
import io.tributary.meta.Database;
import io.tributary.meta.jobs.DbJobScheduler;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.meta.jobs.JobsConnections;
import io.tributary.meta.jobs.JobsDatabase;
import io.tributary.meta.jobs.LocalJobScheduler;
import io.tributary.server.http.DashboardServer;
import io.tributary.server.http.EngineMeters;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.pgwire.ScramCredentials;
import io.tributary.server.pgwire.StatementObserver;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.server.session.QueryLimits;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the database and the pgwire server in the foreground until SIGTERM/SIGINT, then shuts down
 * cleanly: stop accepting, commit what is staged, close the store.
 */
final class ServerRunner {
    private ServerRunner() {}

    static int run(ServerOptions options, String password, boolean playground) throws InterruptedException {
        if (options.barrierIntervalMs < 1) {
            System.err.println("--barrier-interval-ms must be at least 1");
            return 2;
        }
        if (options.maxBackfillJobs < 1) {
            System.err.println("--max-backfill-jobs must be at least 1");
            return 2;
        }
        QueryLimits limits;
        try {
            long timeout = options.statementTimeout == null
                    ? 0
                    : QueryLimits.parseMillis("--statement-timeout", options.statementTimeout);
            long memory = options.queryMemory == null
                    ? QueryLimits.defaultQueryMemory()
                    : QueryLimits.parseBytes(options.queryMemory);
            limits = new QueryLimits(timeout, memory);
        } catch (RuntimeException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        // compilations must not take the core from the writers (see BackgroundPriority.lowerJitCompilers),
        // and every thread started from here on takes the core as soon as it wakes (shortenSlices)
        BackgroundPriority.lowerJitCompilers();
        BackgroundPriority.shortenSlices();
        Cluster cluster;
        try {
            cluster = Cluster.open(
                    options.dataDir,
                    options.barrierIntervalMs,
                    CalciteViewPlanner::new,
                    BuiltinConnectors.create(),
                    jobPlacement(options));
        } catch (TributaryException e) {
            // a clear reason is all the operator needs; the trace would bury it
            System.err.println(e.getMessage());
            return 1;
        }
        cluster.setMaxBackfillJobs(options.maxBackfillJobs);
        // workers read snapshots through dev, which always exists
        Database db = cluster.database(Catalog.DATABASE).orElseThrow();
        // derived once: pgwire checks SCRAM proofs and the HTTP side Basic passwords against it
        ScramCredentials credentials = password == null ? null : ScramCredentials.derive(password, new SecureRandom());
        EngineSessionFactory sessions = new EngineSessionFactory(cluster, limits);
        EngineMeters meters = options.httpPort == 0 ? null : EngineMeters.bind(DashboardServer.databasesOf(cluster));
        PgServer server = new PgServer(
                options.listen, options.port, sessions, credentials, meters == null ? StatementObserver.NONE : meters);
        DashboardServer http = meters == null
                ? null
                : new DashboardServer(
                        options.listen,
                        options.httpPort,
                        DashboardServer.databasesOf(cluster),
                        sessions,
                        credentials,
                        meters);
        try {
            server.start();
            // workers read snapshots from here; the port is known only once bound (--port 0)
            db.jobs().advertise(advertisedHost(options) + ":" + server.port());
            if (http != null) {
                http.start();
            }
        } catch (IllegalStateException e) {
            server.close();
            cluster.close();
            System.err.println(e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            if (http != null) {
                                http.close();
                                meters.close();
                            }
                            server.close();
                            cluster.close();
                            stopped.countDown();
                        },
                        "shutdown"));
        String host = options.listen.equals("0.0.0.0") ? "127.0.0.1" : options.listen;
        System.out.println("Tributary " + (playground ? "playground" : "server") + " is ready on " + options.listen
                + ":" + server.port() + " (data in "
                + options.dataDir.toAbsolutePath().normalize() + ")");
        System.out.println("Connect with:  psql -h " + host + " -p " + server.port() + " -U root -d dev");
        System.out.println("          or:  jdbc:postgresql://" + host + ":" + server.port() + "/dev?user=root");
        if (http != null) {
            System.out.println("Dashboard:     http://" + host + ":" + http.port() + "/  (metrics at /metrics)");
        }
        System.out.flush();
        stopped.await();
        return 0;
    }

    /**
     * The server's pooled connections to the jobs database. Its short calls come from session
     * threads (system tables, progress, scheduling, cancels), the watcher and the results thread,
     * each holding a connection for one statement or short transaction.
     */
    private static final int SERVER_JOBS_CONNECTIONS = 4;

    /** Where jobs run: with --jobs-url, remotely when asked (falling back here); else here. */
    private static JobPlacement jobPlacement(ServerOptions options) {
        if (options.jobsUrl == null || options.jobsUrl.isEmpty()) {
            return JobPlacement.localOnly();
        }
        LocalJobScheduler local = new LocalJobScheduler();
        try {
            return new JobPlacement(
                    local,
                    new DbJobScheduler(
                            JobsConnections.open(
                                    options.jobsUrl, "tributary-server", "jobs-db", SERVER_JOBS_CONNECTIONS),
                            local,
                            options.jobsFallbackMs));
        } catch (SQLException e) {
            throw new TributaryException(
                    SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION,
                    "could not reach the jobs database " + JobsDatabase.mask(options.jobsUrl) + ": " + e.getMessage(),
                    e);
        }
    }

    /** The host at which workers reach this server's pgwire. */
    private static String advertisedHost(ServerOptions options) {
        String host = options.listen;
        if (host == null || host.equals("0.0.0.0") || host.equals("::")) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "localhost";
            }
        }
        return host;
    }
}
