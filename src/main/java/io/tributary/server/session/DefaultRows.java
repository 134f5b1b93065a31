package io.tributary.server.session;

import io.tributary.sql.QueryCursor;
import java.util.function.IntFunction;

/**
 * Rows of an INSERT's DEFAULT expressions when they differ from row to row ({@code
 * gen_random_uuid()}): one per inserted row, read from runs of the plan's query for {@code n} rows
 * ({@code StatementPlan.Insert#defaults}). The runs double from one row to {@link #MAX_BATCH}, so a
 * statement runs the query about log2 of its rows times (plus one per {@code MAX_BATCH} rows)
 * and evaluates at most twice the rows it inserts. One statement, its session's thread.
 */
final class DefaultRows implements AutoCloseable {
    /** The most rows one run evaluates. */
    private static final int MAX_BATCH = 1024;

    /** Opens a run of the query for its argument's number of rows. */
    private final IntFunction<QueryCursor> run;

    private QueryCursor cursor;
    private int batch;

    DefaultRows(IntFunction<QueryCursor> run) {
        this.run = run;
    }

    /** The next inserted row's values of the DEFAULT expressions. */
    Object[] next() {
        Object[] row = cursor == null ? null : cursor.next();
        if (row == null) {
            close();
            batch = Math.min(Math.max(batch * 2, 1), MAX_BATCH);
            cursor = run.apply(batch);
            row = cursor.next();
        }
        return row;
    }

    @Override
    public void close() {
        if (cursor != null) {
            QueryCursor open = cursor;
            cursor = null;
            open.close();
        }
    }
}
