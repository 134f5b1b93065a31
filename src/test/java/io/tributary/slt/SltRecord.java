package io.tributary.slt;

import java.util.List;

/** One executable record of a {@code .slt} file; {@code line} is the 1-based line of its header. */
sealed interface SltRecord {
    int line();

    String sql();

    /** {@code statement ok} or {@code statement error ...}; {@code error} is null when success is expected. */
    record Statement(int line, String sql, SltError error) implements SltRecord {}

    /**
     * {@code query <types> [sort]} with its expected rows, or {@code query error ...} when {@code error} is non-null
     * (then {@code columnCount} is 0 and {@code expected} empty).
     */
    record Query(
            int line, String sql, int columnCount, SortMode sort, List<String> expected, SltError error, Retry retry)
            implements SltRecord {}

    /**
     * {@code retry <attempts> backoff <duration>} after a query's header: run it up to {@code attempts} more
     * times, {@code backoffMillis} apart, until it returns the expected rows (for results that arrive
     * asynchronously, e.g. from a source). {@link #NONE} runs it once.
     */
    record Retry(int attempts, long backoffMillis) {
        static final Retry NONE = new Retry(0, 0);
    }

    /** How result rows are ordered before they are compared. */
    enum SortMode {
        /** Rows compared in the order the server returned them. */
        NOSORT,
        /** Rows compared as a sorted list of lines. */
        ROWSORT,
        /** Every value on a line of its own, all values sorted. */
        VALUESORT
    }
}
