package io.tributary.cli;

import java.io.PrintStream;

/**
 * Prints benchmark figures as rows of {@code metric | tributary | postgresql | ratio}, where ratio
 * is tributary / postgresql. A figure that a target does not have is passed as NaN and printed as
 * {@code -}, and so is the ratio then.
 */
final class BenchTable {
    private final PrintStream out;
    private final int metricWidth;

    /** Prints the column header. */
    BenchTable(PrintStream out, int metricWidth) {
        this.out = out;
        this.metricWidth = metricWidth;
        out.printf("%-" + metricWidth + "s | %12s | %12s | %7s%n", "metric", "tributary", "postgresql", "ratio");
    }

    /** @param format a 12 characters wide format of one figure, e.g. {@code "%,12.0f"} */
    void row(String metric, double tributary, double postgres, String format) {
        double ratio = tributary / postgres;
        out.printf(
                "%-" + metricWidth + "s | %s | %s | %7s%n",
                metric,
                figure(tributary, format),
                figure(postgres, format),
                Double.isFinite(ratio) ? String.format("%7.3f", ratio) : "-");
    }

    private static String figure(double value, String format) {
        return Double.isNaN(value) ? String.format("%12s", "-") : String.format(format, value);
    }
}
