package io.tributary.cli;

import java.io.PrintStream;

/**
 * p50 and p99 of a phase's INSERT latencies, with how many samples they rest on. A p99 of fewer
 * than {@link #MEANINGFUL_SAMPLES} samples is set by a handful of INSERTs (below 10 above it), so the
 * benches say so next to the figure instead of letting it pass as a percentile.
 *
 * @param p50Ms median latency, NaN without samples
 * @param p99Ms 99th percentile latency, NaN without samples
 * @param samples how many INSERTs were timed
 */
record LatencySummary(double p50Ms, double p99Ms, int samples) {
    static final int MEANINGFUL_SAMPLES = 1000;

    /** No measurement (e.g. a target that is not probed). */
    static final LatencySummary NONE = new LatencySummary(Double.NaN, Double.NaN, 0);

    static LatencySummary of(double[] latenciesMs) {
        return new LatencySummary(Percentiles.of(latenciesMs, 50), Percentiles.of(latenciesMs, 99), latenciesMs.length);
    }

    boolean tooFewForP99() {
        return samples < MEANINGFUL_SAMPLES;
    }

    /** Prints a warning line for {@code phase} when its p99 rests on too few samples. */
    void warnIfTooFew(PrintStream out, String phase) {
        if (tooFewForP99()) {
            out.printf(
                    "warning: %s: p99 of only %d INSERTs (fewer than %d), i.e. set by its %d slowest%n",
                    phase, samples, MEANINGFUL_SAMPLES, samples - (int) Math.ceil(0.99 * samples) + 1);
        }
    }
}
