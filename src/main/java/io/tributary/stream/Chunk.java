package io.tributary.stream;

import java.util.ArrayList;
import java.util.List;

/**
 * A batch of row changes in order. Rows are full-width {@code Object[]}s of canonical values (see
 * {@code io.tributary.common.types}); a chunk and its rows are never modified once built, so one
 * chunk may be handed to several consumers. Thread-safe after construction.
 */
public final class Chunk {
    /** Rows per chunk operators aim for: large enough to amortize hand-offs, small enough to stay in cache. */
    public static final int TARGET_SIZE = 1024;

    private final Op[] ops;
    private final Object[][] rows;

    public Chunk(Op[] ops, Object[][] rows) {
        if (ops.length != rows.length) {
            throw new IllegalArgumentException("ops and rows differ in length");
        }
        this.ops = ops;
        this.rows = rows;
    }

    public static Chunk of(Op op, Object[]... rows) {
        Op[] ops = new Op[rows.length];
        java.util.Arrays.fill(ops, op);
        return new Chunk(ops, rows);
    }

    public int size() {
        return rows.length;
    }

    public Op op(int i) {
        return ops[i];
    }

    public Object[] row(int i) {
        return rows[i];
    }

    /** Collects changes into chunks of at most {@link #TARGET_SIZE} rows. One thread. */
    public static final class Builder {
        private final List<Op> ops = new ArrayList<>();
        private final List<Object[]> rows = new ArrayList<>();

        public void add(Op op, Object[] row) {
            ops.add(op);
            rows.add(row);
        }

        public int size() {
            return rows.size();
        }

        public boolean isFull() {
            return rows.size() >= TARGET_SIZE;
        }

        /** The chunk of everything added since the last build, or null when nothing was; resets. */
        public Chunk build() {
            if (rows.isEmpty()) {
                return null;
            }
            Chunk c = new Chunk(ops.toArray(new Op[0]), rows.toArray(new Object[0][]));
            ops.clear();
            rows.clear();
            return c;
        }
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("Chunk[");
        for (int i = 0; i < rows.length; i++) {
            b.append(i == 0 ? "" : ", ")
                    .append(ops[i] == Op.INSERT ? '+' : '-')
                    .append(java.util.Arrays.toString(rows[i]));
        }
        return b.append(']').toString();
    }
}
