package io.tributary.cli;

import java.io.PrintStream;
import java.util.List;

/** {@code tributary bench remote}'s table of its sink backfill rounds: medians over the rounds, then each round. */
final class RemoteSinkReport {
    private static final int METRIC_WIDTH = 40;

    private RemoteSinkReport() {}

    /**
     * One round's INSERT latencies, the two backfills' rows/s, and the server's CPU seconds in each
     * backfill phase beyond what its timed INSERTs cost at the round's idle CPU per INSERT: a remote
     * phase lasts longer than a local one and serves more INSERTs, so its raw CPU seconds grow with
     * them, not with the backfill's own cost.
     */
    record SinkRound(
            LatencySummary idle,
            LatencySummary local,
            LatencySummary remote,
            double localRowsPerSecond,
            double remoteRowsPerSecond,
            double localExtraCpuSeconds,
            double remoteExtraCpuSeconds) {}

    /** Prints the medians of {@code done}, then each round's sample counts and ratios, to {@code out}. */
    static void print(PrintStream out, long rows, String serverCore, String workerCore, List<SinkRound> done) {
        out.printf(
                "bench remote: %,d rows per backfill; server on core %s, worker on core %s; median of %d rounds"
                        + " (each: idle, during a local, during a remote sink backfill)%n",
                rows, serverCore, workerCore, done.size());
        BenchTable table = new BenchTable(out, METRIC_WIDTH);
        table.row("INSERT p50 idle (ms)", median(done, r -> r.idle().p50Ms()), Double.NaN, "%12.2f");
        table.row("INSERT p99 idle (ms)", median(done, r -> r.idle().p99Ms()), Double.NaN, "%12.2f");
        table.row("INSERT p50 local backfill (ms)", median(done, r -> r.local().p50Ms()), Double.NaN, "%12.2f");
        table.row("INSERT p99 local backfill (ms)", median(done, r -> r.local().p99Ms()), Double.NaN, "%12.2f");
        table.row(
                "INSERT p50 remote backfill (ms)", median(done, r -> r.remote().p50Ms()), Double.NaN, "%12.2f");
        table.row(
                "INSERT p99 remote backfill (ms)", median(done, r -> r.remote().p99Ms()), Double.NaN, "%12.2f");
        // the ratio of each round, then their median: idle p99 moves between rounds as much as the
        // backfill moves it, so only a ratio within one round compares like with like
        table.row(
                "p99 local backfill / idle (goal 2)",
                median(done, r -> r.local().p99Ms() / r.idle().p99Ms()),
                Double.NaN,
                "%12.2f");
        table.row(
                "p99 remote backfill / idle (goal 1.2)",
                median(done, r -> r.remote().p99Ms() / r.idle().p99Ms()),
                Double.NaN,
                "%12.2f");
        table.row(
                "backfill rows/s remote vs local",
                median(done, SinkRound::remoteRowsPerSecond),
                median(done, SinkRound::localRowsPerSecond),
                "%,12.0f");
        table.row(
                "server CPU s beyond INSERTs, remote vs local",
                median(done, SinkRound::remoteExtraCpuSeconds),
                median(done, SinkRound::localExtraCpuSeconds),
                "%12.2f");
        for (int i = 0; i < done.size(); i++) {
            SinkRound r = done.get(i);
            out.printf(
                    "round %d: INSERTs timed idle/local/remote %d/%d/%d; p99 ratio local %.2f, remote %.2f%n",
                    i + 1,
                    r.idle().samples(),
                    r.local().samples(),
                    r.remote().samples(),
                    r.local().p99Ms() / r.idle().p99Ms(),
                    r.remote().p99Ms() / r.idle().p99Ms());
            r.idle().warnIfTooFew(out, "round " + (i + 1) + " idle");
            r.local().warnIfTooFew(out, "round " + (i + 1) + " local backfill");
            r.remote().warnIfTooFew(out, "round " + (i + 1) + " remote backfill");
        }
    }

    private static double median(List<SinkRound> done, java.util.function.ToDoubleFunction<SinkRound> figure) {
        double[] values = done.stream().mapToDouble(figure).toArray();
        return Percentiles.of(values, 50);
    }
}
