package io.tributary.cli;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench stream}: how fast an in-process Tributary keeps a filter, a GROUP BY and
 * a join view up to date under concurrent INSERT/UPDATE/DELETE, and how fresh the views are, next
 * to an embedded PostgreSQL taking the same statements and refreshing the same views. One target
 * runs at a time so that they do not compete for cores.
 */
@Command(
        name = "stream",
        mixinStandardHelpOptions = true,
        description =
                "Incremental materialized views: changes/s and freshness on Tributary vs DML + REFRESH on PostgreSQL.")
final class StreamBenchmark implements Callable<Integer> {
    private static final int METRIC_WIDTH = 56;

    @Option(
            names = "--rows",
            defaultValue = "200000",
            description = "Preloaded orders; customers are a twentieth of that (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(
            names = "--changes",
            defaultValue = "100000",
            description =
                    "Changed rows per view: INSERTs, UPDATEs and DELETEs of about 500 rows each (default: ${DEFAULT-VALUE}).")
    long changes;

    @Option(
            names = "--probes",
            defaultValue = "200",
            description =
                    "Freshness probes per view with implicit flush; a twentieth (at least 5) without (default: ${DEFAULT-VALUE}).")
    int probes;

    @Option(
            names = "--clients",
            defaultValue = "4",
            description = "Concurrent connections sending the changes (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(
            names = "--literals",
            description = "In the rounds of single views, send every statement as text with its own constants,"
                    + " as psql does, instead of prepared statements with parameters. The rounds with no view"
                    + " and with all three views run both ways.")
    boolean literals;

    @Option(
            names = "--data-dir",
            description =
                    "New directory for both databases' state, kept after the run (default: a temporary one, deleted after).")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
        if (rows < 20 || changes < 1 || probes < 1 || clients < 1 || clients > ChangeScript.MAX_CLIENTS) {
            System.err.println("--rows must be at least 20, --changes and --probes positive, --clients 1.."
                    + ChangeScript.MAX_CLIENTS);
            return 2;
        }
        int queuedProbes = Math.min(probes, Math.max(5, probes / 20));
        try (BenchDirectory dir = BenchDirectory.of(dataDir)) {
            StreamWorkload workload =
                    new StreamWorkload(rows, changes, probes, queuedProbes, clients, literals, System.err);
            MachineLoad load = MachineLoad.now();
            StreamWorkload.Figures tributary;
            try (BenchTarget target = BenchTarget.tributary(dir.resolve("tributary"))) {
                tributary = workload.runTributary(target);
            }
            StreamWorkload.Figures postgres;
            try (BenchTarget target = BenchTarget.postgres(dir.resolve("postgresql"), System.err)) {
                postgres = workload.runPostgres(target);
            }
            System.out.printf(
                    "bench stream: %,d orders, %,d customers; per round %,d changes from %d clients in"
                            + " statements of up to %d rows (single views: %s); %d probes, %d without implicit"
                            + " flush; %d cores%n",
                    rows,
                    workload.customers(),
                    changes,
                    clients,
                    ChangeScript.ROWS_PER_STATEMENT,
                    literals ? "literal-laden" : "prepared",
                    probes,
                    queuedProbes,
                    load.cores());
            BenchTable table = new BenchTable(System.out, METRIC_WIDTH);
            print(table, "no view", "DML only", tributary.noViewPrepared(), postgres.noViewPrepared(), false);
            print(table, "no view", "DML only", tributary.noViewLiterals(), postgres.noViewLiterals(), true);
            print(table, "three views", "absorbed", tributary.allViewsPrepared(), postgres.allViewsPrepared(), false);
            print(table, "three views", "absorbed", tributary.allViewsLiterals(), postgres.allViewsLiterals(), true);
            for (StreamView view : StreamView.values()) {
                print(
                        table,
                        view.label(),
                        tributary.views().get(view),
                        postgres.views().get(view));
            }
            System.out.println("CPU per 1,000 changes: of the whole benchmark process (Tributary's server and the"
                    + " clients), during the round; it does not grow when other processes take the cores");
            System.out.println("changes/s absorbed: Tributary's views are up to date when its DML returns;"
                    + " PostgreSQL's = changes / (DML + REFRESH MATERIALIZED VIEW)");
            System.out.println("freshness: until a SELECT by key from the view returns the probe's row; when the first"
                    + " poll after the INSERT returned sees it, 'INSERT returned' is the time of that one SELECT");
            System.out.println("PostgreSQL's freshness: INSERT + REFRESH + SELECT, median of a few; no flush:"
                    + " SET implicit_flush = false, barrier every " + BenchTarget.BARRIER_INTERVAL_MS + " ms");
            System.out.println(
                    "ratio = tributary / postgresql: above 1 is better for changes/s, below 1 is better for ms");
            load.warnIfBusy(System.out);
            return checkViewsAgree(tributary, postgres) ? 0 : 1;
        }
    }

    /** The changes/s and CPU rows of a round with no view or with all three views. */
    private static void print(
            BenchTable table,
            String label,
            String what,
            StreamWorkload.RoundFigures t,
            StreamWorkload.RoundFigures p,
            boolean literal) {
        String mode = literal ? "literal-laden" : "prepared";
        table.row(
                label + ", " + mode + ": changes/s " + what,
                t.absorbedChangesPerSecond(),
                p.absorbedChangesPerSecond(),
                "%,12.0f");
        table.row(
                label + ", " + mode + ": CPU ms per 1,000 changes",
                t.cpuMsPerThousand(),
                p.cpuMsPerThousand(),
                "%,12.1f");
    }

    private static void print(
            BenchTable table, String label, StreamWorkload.ViewFigures t, StreamWorkload.ViewFigures p) {
        double cores = Runtime.getRuntime().availableProcessors();
        table.row(label + ": CREATE MATERIALIZED VIEW (ms)", t.createMs(), p.createMs(), "%,12.0f");
        table.row(label + ": changes/s, DML only", t.dmlChangesPerSecond(), p.dmlChangesPerSecond(), "%,12.0f");
        table.row(
                label + ": changes/s absorbed", t.absorbedChangesPerSecond(), p.absorbedChangesPerSecond(), "%,12.0f");
        table.row(
                label + ": changes/s absorbed per core",
                t.absorbedChangesPerSecond() / cores,
                p.absorbedChangesPerSecond() / cores,
                "%,12.0f");
        table.row(label + ": REFRESH after the changes (ms)", t.refreshMs(), p.refreshMs(), "%,12.0f");
        table.row(label + ": probes seen at the 1st poll (%)", t.firstPollPercent(), p.firstPollPercent(), "%12.1f");
        table.row(label + ": freshness p50, INSERT returned (ms)", t.returnedP50Ms(), p.returnedP50Ms(), "%12.2f");
        table.row(label + ": freshness p99, INSERT returned (ms)", t.returnedP99Ms(), p.returnedP99Ms(), "%12.2f");
        table.row(label + ": freshness p50, INSERT sent (ms)", t.sentP50Ms(), p.sentP50Ms(), "%12.2f");
        table.row(label + ": freshness p99, INSERT sent (ms)", t.sentP99Ms(), p.sentP99Ms(), "%12.2f");
        table.row(label + ": no flush: p50, INSERT sent (ms)", t.queuedSentP50Ms(), p.queuedSentP50Ms(), "%12.2f");
        table.row(label + ": no flush: p99, INSERT sent (ms)", t.queuedSentP99Ms(), p.queuedSentP99Ms(), "%12.2f");
    }

    /** Both targets got the same statements, so their views must hold the same rows after them. */
    private static boolean checkViewsAgree(StreamWorkload.Figures tributary, StreamWorkload.Figures postgres) {
        boolean agree = true;
        for (StreamView view : StreamView.values()) {
            List<BigDecimal> t = tributary.views().get(view).fingerprint();
            List<BigDecimal> p = postgres.views().get(view).fingerprint();
            if (!Objects.equals(t, p)) {
                System.out.printf(
                        "MISMATCH: %s view after the changes: tributary %s, postgresql %s%n", view.label(), t, p);
                agree = false;
            }
        }
        for (StreamView view : StreamView.values()) {
            List<BigDecimal> t = tributary.allViewsFingerprints().get(view);
            List<BigDecimal> p = postgres.allViewsFingerprints().get(view);
            if (!Objects.equals(t, p)) {
                System.out.printf(
                        "MISMATCH: %s view after the rounds with three views: tributary %s, postgresql %s%n",
                        view.label(), t, p);
                agree = false;
            }
        }
        if (agree) {
            System.out.println("views after the changes: equal on both targets (count and sums)");
        }
        return agree;
    }
}
