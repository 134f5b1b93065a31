package io.tributary.slt;

import java.util.List;

/** One executable record of a {@code .slt} file; {@code line} is the 1-based line of its header. */
sealed interface SltRecord {
    int line();

    String sql();

    /** {@code statement ok} or {@code statement error ...}; {@code error} is null when success is expected. */
    record Statement(int line, String sql, SltError error) implements SltRecord {
    }

    /**
     * {@code query <types> [sort]} with its expected rows, or {@code query error ...} when {@code error} is non-null
     * (then {@code columnCount} is 0 and {@code expected} empty).
     */
    record Query(int line, String sql, int columnCount, SortMode sort, List<String> expected, SltError error,
            Retry retry) implements SltRecord {
    }

    /**
     * How often a query whose rows differ from the expected ones runs again, and how long to wait before each
     * rerun: for results that become right shortly after the previous statement, such as a background job's
     * progress.
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
