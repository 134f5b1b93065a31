package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;

/** The 0A000 error for a construct a materialized view cannot maintain. */
final class UnsupportedInViews {
    private UnsupportedInViews() {}

    /**
     * @param subject the construct and its verb, e.g. {@code "window functions are"}
     * @return {@code "<subject> not supported in materialized views"}
     */
    static TributaryException error(String subject) {
        return error(subject, 0);
    }

    /** As {@link #error(String)}, pointing at {@code position} (1-based character offset, 0 if unknown). */
    static TributaryException error(String subject, int position) {
        return new TributaryException(
                SqlState.FEATURE_NOT_SUPPORTED,
                subject + " not supported in materialized views",
                position,
                null,
                null,
                null);
    }
}
