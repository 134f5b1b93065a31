package io.tributary.cli;

import io.tributary.meta.Database;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;

import java.util.concurrent.CountDownLatch;

/**
 * Runs the database and the pgwire server in the foreground until SIGTERM/SIGINT, then shuts down
 * cleanly: stop accepting, commit what is staged, close the store.
 */
final class ServerRunner {
    private ServerRunner() {
    }

    static int run(ServerOptions options, String password, boolean playground) throws InterruptedException {
        if (options.barrierIntervalMs < 1) {
            System.err.println("--barrier-interval-ms must be at least 1");
            return 2;
        }
        if (options.maxBackfillJobs < 1) {
            System.err.println("--max-backfill-jobs must be at least 1");
            return 2;
        }
        Database db = Database.open(options.dataDir, options.barrierIntervalMs, CalciteViewPlanner::new);
        db.ddl().setMaxBackfillJobs(options.maxBackfillJobs);
        PgServer server = new PgServer(options.listen, options.port, new EngineSessionFactory(db), password);
        try {
            server.start();
        } catch (RuntimeException e) {
            db.close();
            System.err.println("cannot listen on " + options.listen + ":" + options.port + ": " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            db.close();
            stopped.countDown();
        }, "shutdown"));
        String host = options.listen.equals("0.0.0.0") ? "127.0.0.1" : options.listen;
        System.out.println("Tributary " + (playground ? "playground" : "server") + " is ready on "
                + options.listen + ":" + server.port() + " (data in " + options.dataDir.toAbsolutePath().normalize() + ")");
        System.out.println("Connect with:  psql -h " + host + " -p " + server.port() + " -U root -d dev");
        System.out.println("          or:  jdbc:postgresql://" + host + ":" + server.port() + "/dev?user=root");
        System.out.flush();
        stopped.await();
        return 0;
    }
}
