package io.tributary.cli;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench backfill}: how fast an in-process Tributary creates a SELECT *, a
 * GROUP BY and a join view over a large table in the background, and how much the table's
 * single-row INSERTs slow down meanwhile, next to the time of PostgreSQL's
 * {@code CREATE MATERIALIZED VIEW} on the same rows. One target runs at a time so that they do not
 * compete for cores.
 */
@Command(
        name = "backfill",
        mixinStandardHelpOptions = true,
        description =
                "Background view creation: backfill rows/s and INSERT latency on Tributary vs CREATE MATERIALIZED VIEW on PostgreSQL.")
final class BackfillBenchmark implements Callable<Integer> {
    private static final String TRIBUTARY = "tributary";
    /** How many thread groups each view's CPU line names before summing the rest. */
    private static final int TOP_GROUPS = 7;

    @Option(
            names = "--rows",
            defaultValue = "5000000",
            description = "Rows of the upstream table orders (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(
            names = "--customers",
            defaultValue = "50000",
            description = "Rows of customers, the join's other side (default: ${DEFAULT-VALUE}).")
    int customers;

    @Option(
            names = "--data-dir",
            description =
                    "New directory for both databases' state, kept after the run (default: a temporary one, deleted after).")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
        if (rows < 1 || customers < 1) {
            System.err.println("--rows and --customers must be positive");
            return 2;
        }
        MachineLoad load = MachineLoad.now();
        try (BenchDirectory dir = BenchDirectory.of(dataDir)) {
            BackfillWorkload workload = new BackfillWorkload(rows, customers, System.err);
            BackfillWorkload.TributaryRun tributary;
            HeapWatch heap = new HeapWatch();
            try (heap;
                    BenchTarget target = BenchTarget.tributary(dir.resolve(TRIBUTARY))) {
                tributary = workload.runTributary(target, () -> dir.bytes(TRIBUTARY));
            }
            Map<BackfillQuery, BackfillWorkload.Figures> postgres;
            try (BenchTarget target = BenchTarget.postgres(dir.resolve("postgresql"), System.err)) {
                postgres = workload.runPostgres(target, tributary.views());
            }
            print(tributary, postgres, load.cores());
            heap.print(System.out, "tributary's load and backfills");
            load.warnIfBusy(System.out);
            return checkViewsAgree(tributary.views(), postgres) ? 0 : 1;
        }
    }

    private void print(
            BackfillWorkload.TributaryRun tributary, Map<BackfillQuery, BackfillWorkload.Figures> postgres, int cores) {
        System.out.printf(
                "bench backfill: %,d orders, %,d customers; a single-row INSERT into orders every %d ms"
                        + " before and during each backfill; %d cores%n",
                rows, customers, PacedInserts.PACE_MS, cores);
        String format =
                "%-8s | %11s | %9s | %9s | %9s | %7s | %7s | %9s | %9s | %7s | %10s | %10s | %10s | %10s | %11s | %13s%n";
        System.out.printf(
                format,
                "query",
                "backfill s",
                "CPU s",
                "job CPU s",
                "job wait s",
                "JIT s",
                "GC s",
                "rows/s",
                "PG MV s",
                "ratio",
                "INSERT p50",
                "p99",
                "p50",
                "p99",
                "p99 during",
                "INSERTs");
        System.out.printf(
                format,
                "",
                "tributary",
                "tributary",
                "tributary",
                "for a core",
                "",
                "",
                "tributary",
                "",
                "PG/ours",
                "idle (ms)",
                "idle (ms)",
                "during",
                "during",
                "/ idle",
                "idle/during");
        for (BackfillQuery query : BackfillQuery.values()) {
            BackfillWorkload.Figures t = tributary.views().get(query);
            double pgSeconds = postgres.get(query).seconds();
            System.out.printf(
                    format,
                    query.label(),
                    String.format("%.1f", t.seconds()),
                    String.format("%.1f", t.cpuSeconds()),
                    String.format("%.1f", t.jobCpuSeconds()),
                    String.format("%.1f", t.jobWaitSeconds()),
                    String.format("%.1f", t.jitSeconds()),
                    String.format("%.1f", t.gcSeconds()),
                    String.format("%,.0f", rows / t.seconds()),
                    String.format("%.1f", pgSeconds),
                    String.format("%.3f", pgSeconds / t.seconds()),
                    String.format("%.2f", t.idle().p50Ms()),
                    String.format("%.2f", t.idle().p99Ms()),
                    String.format("%.2f", t.during().p50Ms()),
                    String.format("%.2f", t.during().p99Ms()),
                    String.format("%.2f", t.during().p99Ms() / t.idle().p99Ms()),
                    t.idle().samples() + "/" + t.during().samples());
        }
        for (BackfillQuery query : BackfillQuery.values()) {
            BackfillWorkload.Figures t = tributary.views().get(query);
            t.idle().warnIfTooFew(System.out, query.label() + " idle");
            t.during().warnIfTooFew(System.out, query.label() + " during the backfill");
        }
        System.out.println("backfill s: from CREATE MATERIALIZED VIEW (background_ddl = true) until the job is done;"
                + " CPU s: this process's CPU seconds meanwhile (the server, and the INSERTs' client);"
                + " job CPU s: of those, the view's actor and backfill threads' (the rest, the INSERTs, the job"
                + " polls, the JIT and GC, grows with the elapsed time, so with the machine's load);"
                + " job wait s: how long those threads were ready to run but waited for a core (they run"
                + " at background priority, so any other runnable thread goes first: the JIT, the"
                + " collector, the INSERTs, other processes);"
                + " JIT s: the JIT compilers' time meanwhile; GC s: the collector's;"
                + " rows/s = orders / that; ratio above 1: ours is faster");
        for (BackfillQuery query : BackfillQuery.values()) {
            System.out.printf(
                    "%-8s CPU s by thread group: %s%n",
                    query.label(),
                    ThreadGroupsCpu.topGroups(tributary.views().get(query).cpuByGroup(), TOP_GROUPS));
        }
        System.out.println("(CPU s by thread group: the process's CPU during the view by the kernel's thread names,"
                + " largest first; ended threads: threads that ended between two readings, 100 ms apart)");
        System.out.printf("tributary state on disk (MB): after the load %,.1f", tributary.loadedStateBytes() / 1e6);
        for (BackfillQuery query : BackfillQuery.values()) {
            System.out.printf(
                    "; after DROP of %s %,.1f",
                    query.label(), tributary.views().get(query).stateBytes() / 1e6);
        }
        System.out.println();
        System.out.println(
                "(state on disk includes RocksDB's write-ahead log, which keeps a dropped view's writes until"
                        + " they are flushed)");
    }

    /** Both views of a query cover the same orders, so they must hold the same rows. */
    private static boolean checkViewsAgree(
            Map<BackfillQuery, BackfillWorkload.Figures> tributary,
            Map<BackfillQuery, BackfillWorkload.Figures> postgres) {
        boolean agree = true;
        for (BackfillQuery query : BackfillQuery.values()) {
            List<BigDecimal> t = tributary.get(query).fingerprint();
            List<BigDecimal> p = postgres.get(query).fingerprint();
            if (!Objects.equals(t, p)) {
                System.out.printf("MISMATCH: %s view: tributary %s, postgresql %s%n", query.label(), t, p);
                agree = false;
            }
        }
        if (agree) {
            System.out.println("views: equal on both targets (count and sums)");
        }
        return agree;
    }
}
