package io.tributary.stream;

import java.util.Arrays;

/**
 * A batch of row changes in order. Rows are full-width {@code Object[]}s of canonical values (see
 * {@code io.tributary.common.types}); a chunk and its rows are never modified once built, so one
 * chunk may be handed to several consumers.
 *
 * <p>A chunk of an upstream's snapshot rows ({@link #ofStored}) also holds each row's stored key
 * and value bytes, and decodes a row only when {@link #row} first asks for it: an operator that
 * stores the rows exactly as the upstream does copies the bytes and never decodes them. Such a row
 * holds NULL in the columns its plan never reads ({@link StoredLayout}'s read columns). Such a
 * chunk is thread-safe only once {@link #decodeAll} ran on the thread that built it; a channel
 * does that before another thread can see the chunk. Other chunks are thread-safe after
 * construction.
 */
public final class Chunk {
    /** Rows per chunk operators aim for: large enough to amortize hand-offs, small enough to stay in cache. */
    public static final int TARGET_SIZE = 1024;

    private final Op[] ops;
    /** The rows; for a stored chunk, null where a row was not decoded yet. */
    private final Object[][] rows;
    /** How {@link #pks} and {@link #values} are encoded; null unless the chunk was built {@link #ofStored}. */
    private final StoredLayout layout;

    private final byte[][] pks;
    private final byte[][] values;

    public Chunk(Op[] ops, Object[][] rows) {
        if (ops.length != rows.length) {
            throw new IllegalArgumentException("ops and rows differ in length");
        }
        this.ops = ops;
        this.rows = rows;
        this.layout = null;
        this.pks = null;
        this.values = null;
    }

    private Chunk(Op[] ops, StoredLayout layout, byte[][] pks, byte[][] values) {
        this.ops = ops;
        this.rows = new Object[ops.length][];
        this.layout = layout;
        this.pks = pks;
        this.values = values;
    }

    /**
     * The INSERTs of {@code count} snapshot rows of an upstream stored with {@code layout}, given
     * by their memcomparable primary keys (without table id and vnode) and stored values; the
     * arrays are kept, not copied, and must not change afterwards.
     */
    public static Chunk ofStored(StoredLayout layout, byte[][] pks, byte[][] values, int count) {
        Op[] ops = new Op[count];
        Arrays.fill(ops, Op.INSERT);
        return new Chunk(
                ops,
                layout,
                pks.length == count ? pks : Arrays.copyOf(pks, count),
                values.length == count ? values : Arrays.copyOf(values, count));
    }

    public static Chunk of(Op op, Object[]... rows) {
        Op[] ops = new Op[rows.length];
        Arrays.fill(ops, op);
        return new Chunk(ops, rows);
    }

    public int size() {
        return rows.length;
    }

    public Op op(int i) {
        return ops[i];
    }

    /** Row {@code i}; decoded on the first call for a stored chunk (see the class comment for threads). */
    public Object[] row(int i) {
        Object[] row = rows[i];
        if (row == null) {
            row = layout.decode(values[i]);
            rows[i] = row;
        }
        return row;
    }

    /** How the rows' stored bytes are encoded, or null when the chunk holds decoded rows only. */
    public StoredLayout layout() {
        return layout;
    }

    /** Row {@code i}'s memcomparable primary key as its upstream stores it; only when {@link #layout} is not null. */
    public byte[] storedPk(int i) {
        return pks[i];
    }

    /** Row {@code i}'s value bytes as its upstream stores them; only when {@link #layout} is not null. */
    public byte[] storedValue(int i) {
        return values[i];
    }

    /**
     * Decodes every row not decoded yet, so that the chunk can be read on other threads: called
     * by the thread that built or last read it, before it hands the chunk over (a channel's send).
     */
    public void decodeAll() {
        if (layout != null) {
            for (int i = 0; i < rows.length; i++) {
                row(i);
            }
        }
    }

    /**
     * Collects changes into chunks (callers build when {@link #isFull}, so at most {@link
     * #TARGET_SIZE} rows). One thread.
     *
     * <p>Each chunk's arrays are allocated afresh and handed to the chunk, not kept in lists the
     * builder reuses: a builder lives as long as its actor, so reused backing arrays end up in the
     * old generation, and every row stored into one then took G1's full post-write barrier (a
     * StoreLoad fence behind the row's own freshly written bytes). JFR of {@code bench backfill}'s
     * join put a third of the join actors' samples on that store. A fresh array is young, where the
     * barrier stops at its first check; and the chunk takes the arrays without the lists' copy.
     */
    public static final class Builder {
        /** The first arrays' length: a live epoch's chunks are often a few rows. */
        private static final int INITIAL_CAPACITY = 64;

        private Op[] ops;
        private Object[][] rows;
        private int size;

        public void add(Op op, Object[] row) {
            if (ops == null) {
                ops = new Op[INITIAL_CAPACITY];
                rows = new Object[INITIAL_CAPACITY][];
            } else if (size == ops.length) {
                int capacity = size < TARGET_SIZE ? Math.min(TARGET_SIZE, size * 4) : size * 2;
                ops = Arrays.copyOf(ops, capacity);
                rows = Arrays.copyOf(rows, capacity);
            }
            ops[size] = op;
            rows[size] = row;
            size++;
        }

        public int size() {
            return size;
        }

        public boolean isFull() {
            return size >= TARGET_SIZE;
        }

        /** The chunk of everything added since the last build, or null when nothing was; resets. */
        public Chunk build() {
            if (size == 0) {
                return null;
            }
            Chunk c = size == ops.length
                    ? new Chunk(ops, rows)
                    : new Chunk(Arrays.copyOf(ops, size), Arrays.copyOf(rows, size));
            ops = null;
            rows = null;
            size = 0;
            return c;
        }
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("Chunk[");
        for (int i = 0; i < rows.length; i++) {
            b.append(i == 0 ? "" : ", ").append(ops[i] == Op.INSERT ? '+' : '-').append(Arrays.toString(row(i)));
        }
        return b.append(']').toString();
    }
}
