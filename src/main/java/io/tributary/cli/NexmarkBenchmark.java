package io.tributary.cli;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench nexmark}: events per second and per CPU-second of Tributary running each Nexmark
 * query as a materialized view over the {@code nexmark} connector's three tables (or, with {@code --relations
 * sources}, its three sources, which store nothing), with the source alone (the relations, no view) as the ceiling, next to RisingWave's and Flink 1.13's published per-core figures. Each run
 * starts a fresh in-process server, creates the tables (generating {@code --events} events over them), pauses
 * their sources, creates the view (which backfills the few events generated before the pause), resumes the
 * sources, and ends when every event is committed (a live view commits in the same epochs). The
 * per-core figure divides the events by the CPU time this JVM used meanwhile, so it holds on a busy machine.
 */
@Command(
        name = "nexmark",
        mixinStandardHelpOptions = true,
        description = "Nexmark queries as views: events/s per core, beside RisingWave's and Flink's published figures.")
final class NexmarkBenchmark implements Callable<Integer> {
    /** RisingWave's published events/s per core. */
    private static final Map<String, Double> RISINGWAVE =
            Map.of("q0", 118_000.0, "q4", 13_900.0, "q5", 5_200.0, "q7", 20_300.0, "q8", 60_700.0);
    /** Flink 1.13's published events/s per core. */
    private static final Map<String, Double> FLINK =
            Map.of("q0", 155_000.0, "q4", 34_000.0, "q5", 22_000.0, "q7", 12_000.0, "q8", 146_000.0);

    @Option(names = "--events", defaultValue = "1000000", description = "Events per run (default: ${DEFAULT-VALUE}).")
    long events;

    @Option(
            names = "--query",
            split = ",",
            description = "Queries to run, comma-separated, e.g. q0,q5 (default: those with published figures).")
    List<String> queries;

    @Option(names = "--splits", defaultValue = "1", description = "Splits per table (default: ${DEFAULT-VALUE}).")
    int splits;

    @Option(
            names = "--warmup-events",
            defaultValue = "100000",
            description =
                    "Events of an untimed run of each query (and of the source alone) first, in the same JVM,"
                            + " so the timed runs measure compiled code as long runs do; 0 for none (default: ${DEFAULT-VALUE}).")
    long warmupEvents;

    @Option(
            names = "--relations",
            defaultValue = "tables",
            description =
                    "How the events are read: tables (connector tables, which store every event) or sources"
                            + " (CREATE SOURCE: not stored, as RisingWave's published runs read them) (default: ${DEFAULT-VALUE}).")
    String relations;

    @Option(
            names = "--data-dir",
            description = "New directory for the runs' state, kept after the run (default: a temporary one).")
    Path dataDir;

    private record Figure(String name, double perSecond, double perCpuSecond) {}

    @Override
    public Integer call() throws Exception {
        List<String> selected = queries != null ? queries : List.of("q0", "q4", "q5", "q7", "q8");
        for (String q : selected) {
            if (!NexmarkQueries.QUERIES.containsKey(q)) {
                System.err.println("unknown --query " + q + "; the queries are: " + NexmarkQueries.QUERIES.keySet());
                return 2;
            }
        }
        if (!relations.equals("tables") && !relations.equals("sources")) {
            System.err.println("--relations must be tables or sources");
            return 2;
        }
        if (events < 50 || splits < 1 || (warmupEvents != 0 && warmupEvents < 50)) {
            System.err.println("--events must be at least 50, --warmup-events 0 or at least 50, --splits positive");
            return 2;
        }
        List<Figure> figures = new ArrayList<>();
        try (BenchDirectory dir = BenchDirectory.of(dataDir)) {
            if (warmupEvents > 0) {
                run(dir.resolve("warmup-source"), "warm-up: source alone", null, warmupEvents);
                for (String q : selected) {
                    run(dir.resolve("warmup-" + q), "warm-up: " + q, NexmarkQueries.QUERIES.get(q), warmupEvents);
                }
            }
            figures.add(run(dir.resolve("source"), "source alone", null, events));
            for (String q : selected) {
                figures.add(run(dir.resolve(q), q, NexmarkQueries.QUERIES.get(q), events));
            }
        }
        print(figures);
        return 0;
    }

    /**
     * One run of {@code count} events on a fresh server: the tables, the view (when {@code query} is not null),
     * every event committed.
     */
    private Figure run(Path dir, String name, String query, long count) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (BenchTarget target = BenchTarget.tributary(dir);
                Connection c = target.connect();
                Statement st = c.createStatement()) {
            // the query's own tables (q13's side input) are made before the clock starts
            for (String setup : query == null ? List.<String>of() : setupOf(name)) {
                st.execute(setup);
            }
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            for (String table : NexmarkQueries.TABLES.keySet()) {
                st.execute(
                        sources()
                                ? NexmarkQueries.createSource(table, count, splits)
                                : NexmarkQueries.createTable(table, count, splits));
            }
            if (query != null) {
                // as RisingWave's Nexmark runs: the view exists before the events flow, so it follows
                // them live (the few generated before the pause are its backfill)
                setRateLimit(st, "0");
                st.execute("CREATE MATERIALIZED VIEW " + viewName(name) + " AS " + query);
                setRateLimit(st, "DEFAULT");
            }
            try (PreparedStatement progress = c.prepareStatement(
                    "SELECT coalesce(sum(rows_ingested), 0) FROM tributary_catalog.source_progress")) {
                // each check is a query the server plans and runs, counted in its CPU: often enough for
                // the wall clock (a 20 s run is off by at most 1 %), rarely enough to cost little
                while (committed(progress) < count) {
                    Thread.sleep(200);
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpuSeconds = (os.getProcessCpuTime() - cpu0) / 1e9;
            Figure f = new Figure(name, count / seconds, count / cpuSeconds);
            System.err.printf(
                    "tributary: %s, %,d events in %.2f s (%.2f CPU-s): %,.0f events/s, %,.0f per core%n",
                    name, count, seconds, cpuSeconds, f.perSecond(), f.perCpuSecond());
            return f;
        }
    }

    private static List<String> setupOf(String name) {
        return NexmarkQueries.SETUP.getOrDefault(viewName(name), List.of());
    }

    private void setRateLimit(Statement st, String limit) throws SQLException {
        for (String table : NexmarkQueries.TABLES.keySet()) {
            st.execute("ALTER " + (sources() ? "SOURCE " : "TABLE ") + table + " SET SOURCE_RATE_LIMIT = " + limit);
        }
    }

    private boolean sources() {
        return relations.equals("sources");
    }

    /** The view's name for a run's name: the query's ({@code q0}), also for its warm-up run. */
    private static String viewName(String name) {
        return name.substring(name.lastIndexOf(' ') + 1);
    }

    private static long committed(PreparedStatement progress) throws SQLException {
        try (ResultSet rs = progress.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void print(List<Figure> figures) {
        System.out.printf(
                "Nexmark, %,d events read from %s, %d split(s) per relation, %d cores, after a warm-up run of %,d"
                        + " events each; per core = events per CPU-second of the server%n",
                events,
                sources() ? "sources (CREATE SOURCE, not stored)" : "tables (connector tables, stored)",
                splits,
                Runtime.getRuntime().availableProcessors(),
                warmupEvents);
        System.out.printf(
                "%-14s %14s %16s %16s %10s %16s%n",
                "query", "events/s", "events/s/core", "RisingWave/core", "ratio", "Flink 1.13/core");
        for (Figure f : figures) {
            Double rw = RISINGWAVE.get(f.name());
            Double flink = FLINK.get(f.name());
            System.out.printf(
                    "%-14s %,14.0f %,16.0f %16s %10s %16s%n",
                    f.name(),
                    f.perSecond(),
                    f.perCpuSecond(),
                    rw == null ? "-" : String.format("%,.0f", rw),
                    rw == null ? "-" : String.format("%.2fx", f.perCpuSecond() / rw),
                    flink == null ? "-" : String.format("%,.0f", flink));
        }
    }
}
