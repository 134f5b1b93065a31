package io.tributary.cli;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every round's INSERT latencies of one kind of phase (idle, during a local backfill, during a remote
 * one), pooled. A p99 per round moves by 2x between rounds of the same build on a 2-core machine
 * (a burst of the machine's own background work lands in one round and not the next), so the
 * median of per-round ratios wanders with it; the p99 of all rounds' samples together rests on
 * several times the samples and says the same thing every run more often. Used by the bench's one
 * thread.
 */
final class PooledLatencies {
    private final Map<String, double[]> byKind = new LinkedHashMap<>();

    /** Adds one phase's latencies (ms) to those of {@code kind}. */
    void add(String kind, double[] latenciesMs) {
        double[] pooled = byKind.get(kind);
        if (pooled == null) {
            byKind.put(kind, latenciesMs.clone());
            return;
        }
        double[] grown = Arrays.copyOf(pooled, pooled.length + latenciesMs.length);
        System.arraycopy(latenciesMs, 0, grown, pooled.length, latenciesMs.length);
        byKind.put(kind, grown);
    }

    /** The p99 of every latency added under {@code kind}, NaN if none. */
    double p99(String kind) {
        return Percentiles.of(byKind.getOrDefault(kind, new double[0]), 99);
    }

    /** How many latencies were added under {@code kind}. */
    int samples(String kind) {
        return byKind.getOrDefault(kind, new double[0]).length;
    }
}
