package io.tributary.server.session;

import io.tributary.sql.QueryCursor;
import java.util.ArrayList;
import java.util.List;

/**
 * Streams a query's rows; owns the snapshots the query reads, released on close so a client that
 * fetches slowly holds its epoch's files only as long as its cursor is open.
 */
final class QueryRowCursor implements RowCursor {
    private final QueryCursor cursor;
    private final StatementReads snapshot;
    private final Runnable onClose;
    private final java.util.function.Function<java.util.function.Supplier<List<Object[]>>, List<Object[]>> asStatement;
    private Object[] lookahead;
    private boolean done;
    private boolean closed;

    /**
     * @param onClose runs once after the cursor and snapshot are released
     * @param asStatement runs a fetch as part of the statement (so the client can cancel it)
     */
    QueryRowCursor(
            QueryCursor cursor,
            StatementReads snapshot,
            Runnable onClose,
            java.util.function.Function<java.util.function.Supplier<List<Object[]>>, List<Object[]>> asStatement) {
        this.cursor = cursor;
        this.snapshot = snapshot;
        this.onClose = onClose;
        this.asStatement = asStatement;
    }

    @Override
    public List<Object[]> fetch(int maxRows) {
        return asStatement.apply(() -> fetchRows(maxRows));
    }

    private List<Object[]> fetchRows(int maxRows) {
        List<Object[]> out = new ArrayList<>(maxRows <= 0 ? 64 : Math.min(maxRows, 4096));
        while (!done && (maxRows <= 0 || out.size() < maxRows)) {
            Object[] row = lookahead != null ? lookahead : cursor.next();
            lookahead = null;
            if (row == null) {
                done = true;
            } else {
                out.add(row);
            }
        }
        if (!done && lookahead == null) {
            lookahead = cursor.next();
            done = lookahead == null;
        }
        if (done) {
            close();
        }
        return out;
    }

    @Override
    public boolean exhausted() {
        return done;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                cursor.close();
            } finally {
                snapshot.close();
                onClose.run();
            }
        }
    }
}
