package io.tributary.cli;

import java.util.Arrays;

/** Nearest-rank percentiles of measured samples. */
final class Percentiles {
    private Percentiles() {}

    /**
     * @param p the percentile, 1..100; 50 is the median
     * @return the smallest sample that at least {@code p} percent of the samples are not above;
     *     NaN if there are no samples
     */
    static double of(double[] samples, int p) {
        if (samples.length == 0) {
            return Double.NaN;
        }
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
