package io.tributary.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * {@code tributary bench remote}'s table of its view backfill rounds, on one worker and on two:
 * medians over the rounds, and pooled p99s.
 */
final class RemoteViewReport {
    private static final int METRIC_WIDTH = 40;

    private RemoteViewReport() {}

    /** One view round: idle, (with {@code withLocal}) a local backfill, a remote one, and PostgreSQL's CMV. */
    record ViewRound(
            LatencySummary idle, RemoteViewRounds.Phase local, RemoteViewRounds.Phase remote, double postgresSeconds) {}

    /**
     * Prints the medians of the rounds on one worker ({@code one}) and on two ({@code two}), and the
     * p99s of {@code pooled}, to {@code out}.
     */
    static void print(
            PrintStream out,
            long rows,
            String serverCore,
            String workerCore,
            List<ViewRound> one,
            List<ViewRound> two,
            PooledLatencies pooled) {
        out.printf(
                "bench remote views: a GROUP BY and a join view over %,d rows created together; server on core %s,"
                        + " workers on core %s; median of %d rounds, and \"pooled\" rows: the p99 of every round's"
                        + " INSERTs of a kind together (%,d idle, %,d during remote builds with 1 worker); the PostgreSQL"
                        + " column is its CREATE MATERIALIZED VIEW of both in the same run%n",
                rows, serverCore, workerCore, one.size(), pooled.samples("idle"), pooled.samples("remote1"));
        BenchTable table = new BenchTable(out, METRIC_WIDTH);
        table.row("view INSERT p50 idle (ms)", medianOf(one, r -> r.idle().p50Ms()), Double.NaN, "%12.2f");
        table.row(
                "view INSERT p50 local backfill (ms)",
                medianOf(one, r -> r.local().inserts().p50Ms()),
                Double.NaN,
                "%12.2f");
        table.row(
                "view INSERT p50 remote, 1 worker (ms)",
                medianOf(one, r -> r.remote().inserts().p50Ms()),
                Double.NaN,
                "%12.2f");
        table.row(
                "p50 local / idle, remote 1 worker / idle",
                medianOf(one, r -> r.local().inserts().p50Ms() / r.idle().p50Ms()),
                medianOf(one, r -> r.remote().inserts().p50Ms() / r.idle().p50Ms()),
                "%12.2f");
        table.row("view INSERT p99 idle (ms)", medianOf(one, r -> r.idle().p99Ms()), Double.NaN, "%12.2f");
        table.row(
                "view INSERT p99 local backfill (ms)",
                medianOf(one, r -> r.local().inserts().p99Ms()),
                Double.NaN,
                "%12.2f");
        table.row(
                "view INSERT p99 remote, 1 worker (ms)",
                medianOf(one, r -> r.remote().inserts().p99Ms()),
                Double.NaN,
                "%12.2f");
        table.row(
                "view INSERT p99 remote, 2 workers (ms)",
                medianOf(two, r -> r.remote().inserts().p99Ms()),
                Double.NaN,
                "%12.2f");
        table.row(
                "p99 local view backfill / idle",
                medianOf(one, r -> r.local().inserts().p99Ms() / r.idle().p99Ms()),
                Double.NaN,
                "%12.2f");
        table.row(
                "p99 remote view, 1 worker / idle (goal 1.2)",
                medianOf(one, r -> r.remote().inserts().p99Ms() / r.idle().p99Ms()),
                Double.NaN,
                "%12.2f");
        table.row(
                "p99 remote view, 2 workers / idle",
                medianOf(two, r -> r.remote().inserts().p99Ms() / r.idle().p99Ms()),
                Double.NaN,
                "%12.2f");
        double pooledIdle = pooled.p99("idle");
        table.row("view INSERT p99 pooled: idle, local (ms)", pooledIdle, pooled.p99("local"), "%12.2f");
        table.row("view INSERT p99 pooled: remote 1w, 2w (ms)", pooled.p99("remote1"), pooled.p99("remote2"), "%12.2f");
        table.row(
                "pooled p99/idle: local, remote 1w (goal 1.2)",
                pooled.p99("local") / pooledIdle,
                pooled.p99("remote1") / pooledIdle,
                "%12.2f");
        table.row("pooled p99/idle: remote 2 workers", pooled.p99("remote2") / pooledIdle, Double.NaN, "%12.2f");
        double pgRate = 2 * rows / medianOf(one, ViewRound::postgresSeconds);
        table.row(
                "view rows/s local vs PostgreSQL CMV",
                medianOf(one, r -> r.local().rowsPerSecond()),
                pgRate,
                "%,12.0f");
        table.row(
                "view rows/s 1 worker vs PostgreSQL CMV",
                medianOf(one, r -> r.remote().rowsPerSecond()),
                pgRate,
                "%,12.0f");
        table.row(
                "view rows/s 2 workers vs PostgreSQL CMV",
                medianOf(two, r -> r.remote().rowsPerSecond()),
                pgRate,
                "%,12.0f");
        table.row(
                "server CPU s: remote 1 worker vs local",
                medianOf(one, r -> r.remote().serverCpuSeconds()),
                medianOf(one, r -> r.local().serverCpuSeconds()),
                "%12.1f");
        table.row(
                "worker CPU ms per view row: 1 w, 2 w",
                medianOf(one, r -> 1000 * r.remote().workerCpuSeconds() / (2 * rows)),
                medianOf(two, r -> 1000 * r.remote().workerCpuSeconds() / (2 * rows)),
                "%12.3f");
        table.row(
                "server CPU s: remote 2 workers vs local",
                medianOf(two, r -> r.remote().serverCpuSeconds()),
                medianOf(one, r -> r.local().serverCpuSeconds()),
                "%12.1f");
        for (List<ViewRound> set : List.of(one, two)) {
            for (ViewRound r : set) {
                r.idle().warnIfTooFew(out, "view round idle");
                r.remote().inserts().warnIfTooFew(out, "view round remote backfill");
            }
        }
    }

    private static double medianOf(List<ViewRound> done, java.util.function.ToDoubleFunction<ViewRound> figure) {
        return Percentiles.of(done.stream().mapToDouble(figure).toArray(), 50);
    }
}
