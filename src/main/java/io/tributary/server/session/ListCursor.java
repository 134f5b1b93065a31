package io.tributary.server.session;

import java.util.List;

/** A cursor over rows already in memory (SHOW results). */
final class ListCursor implements RowCursor {
    private final List<Object[]> rows;
    private int next;

    ListCursor(List<Object[]> rows) {
        this.rows = rows;
    }

    @Override
    public List<Object[]> fetch(int maxRows) {
        int end = maxRows <= 0 ? rows.size() : Math.min(rows.size(), next + maxRows);
        List<Object[]> out = rows.subList(next, end);
        next = end;
        return out;
    }

    @Override
    public boolean exhausted() {
        return next >= rows.size();
    }

    @Override
    public void close() {
        next = rows.size();
    }
}
