package io.tributary.cli;

import io.tributary.common.BackgroundPriority;
import io.tributary.common.TributaryException;
import io.tributary.meta.ScratchViewBuild;
import io.tributary.meta.jobs.JobsConnections;
import io.tributary.meta.jobs.JobsDatabase;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.worker.JobWorker;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tributary worker}: runs remote jobs (sink backfills, views' snapshot phases) that servers queue in the shared jobs database. */
@Command(
        name = "worker",
        mixinStandardHelpOptions = true,
        description = "Run remote jobs from the jobs database a server was started with (--jobs-url).")
final class WorkerCommand implements Callable<Integer> {
    @Option(
            names = "--jobs-url",
            required = true,
            description = "The shared jobs database, jdbc:postgresql://host:port/db?user=...&password=...")
    String jobsUrl;

    @Option(names = "--name", description = "This worker's name (default: host name and process id).")
    String name;

    @Option(names = "--slots", defaultValue = "2", description = "Jobs run at once (default: ${DEFAULT-VALUE}).")
    int slots;

    @Option(
            names = "--server-password",
            defaultValue = "${env:TRIBUTARY_SERVER_PASSWORD}",
            description = "The server's password, when it runs with one (default: $TRIBUTARY_SERVER_PASSWORD).")
    String serverPassword;

    @Override
    public Integer call() throws InterruptedException {
        if (slots < 1) {
            System.err.println("--slots must be at least 1");
            return 2;
        }
        String me = name != null ? name : host() + "-" + ProcessHandle.current().pid();
        // a worker's backfills are its foreground: at background priority they only gave way to
        // other processes on its machine (in the bench, the INSERT client beside it)
        BackgroundPriority.keepNormalPriority();
        JobWorker worker;
        try {
            worker = new JobWorker(
                    JobsConnections.open(jobsUrl, "tributary-worker " + me, "jobs-db", poolSize(slots)),
                    me,
                    slots,
                    serverPassword == null || serverPassword.isEmpty() ? null : serverPassword,
                    ScratchViewBuild.opener(CalciteViewPlanner::new));
        } catch (TributaryException e) {
            System.err.println(e.getMessage());
            return 2;
        } catch (SQLException e) {
            System.err.println(
                    "could not reach the jobs database " + JobsDatabase.mask(jobsUrl) + ": " + e.getMessage());
            return 2;
        }
        worker.start();
        System.out.println("worker " + me + " polling " + JobsDatabase.mask(jobsUrl));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            worker.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }

    /**
     * The worker's pooled connections to the jobs database: db-scheduler's poller and its
     * heartbeats, this worker's heartbeat, and each running job's short calls (its per-piece
     * ownership check); every one holds a connection for a statement. Jobs beyond two share.
     */
    private static int poolSize(int slots) {
        return Math.min(4, 2 + slots);
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "worker";
        }
    }
}
