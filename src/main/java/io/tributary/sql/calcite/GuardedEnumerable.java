package io.tributary.sql.calcite;

import io.tributary.sql.StatementControl;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * The run-time side of {@link GuardedRel}: rows pass through unchanged; before each one the
 * statement's {@link StatementControl} is checked, so a cancel, a timeout or a lost connection
 * stops every loop that pulls rows. In front of a materializing operator it also accounts what
 * that operator will hold, and gives it back when the operator closes its input.
 *
 * <p>Public only because Calcite's generated code calls {@link #of}; not an API.
 */
public final class GuardedEnumerable<T> extends AbstractEnumerable<T> {
    /** Rows stream through; nothing is accounted. */
    public static final int STREAM = 0;
    /** The consumer keeps every row (sort, hash build side, set operation, window). */
    public static final int MATERIALIZED = 1;
    /** The consumer keeps one entry per distinct group key (hash aggregation, DISTINCT). */
    public static final int GROUPED = 2;
    /**
     * The consumer reads this input again for each row of its other input (a nested-loop join's
     * inner side): it is read once, kept and accounted, and each later pass reads the kept rows,
     * as PostgreSQL's Materialize node does, instead of scanning the table again per outer row.
     */
    public static final int SPOOLED = 3;

    private final Enumerable<T> input;
    private final StatementControl control;
    private final int mode;
    private final long bytesPerRow;
    private final long maxRows;
    private final int[] keys;
    /** For SPOOLED: the input's rows once read in full; null before. */
    private List<T> spool;

    private GuardedEnumerable(
            Enumerable<T> input, StatementControl control, int mode, long bytesPerRow, long maxRows, int[] keys) {
        this.input = input;
        this.control = control;
        this.mode = mode;
        this.bytesPerRow = bytesPerRow;
        this.maxRows = maxRows;
        this.keys = keys;
    }

    /**
     * Called by generated code, once per execution of the plan.
     *
     * @param maxRows for MATERIALIZED, the most rows the consumer keeps (a top-N sort keeps N)
     */
    public static <T> Enumerable<T> of(
            Enumerable<T> input, StatementControl control, int mode, long bytesPerRow, long maxRows, int[] keys) {
        return new GuardedEnumerable<>(input, control, mode, bytesPerRow, maxRows, keys);
    }

    @Override
    public Enumerator<T> enumerator() {
        control.check();
        if (mode == SPOOLED) {
            return new Guarded<>(Linq4j.enumerator(spooled()), this);
        }
        return new Guarded<>(input.enumerator(), this);
    }

    /**
     * The input's rows, read on the first call. The rows stay accounted until the statement ends
     * (the consumer closes its inner pass once per outer row, so no close marks the last one).
     */
    private List<T> spooled() {
        if (spool == null) {
            List<T> rows = new ArrayList<>();
            try (Enumerator<T> in = input.enumerator()) {
                while (in.moveNext()) {
                    control.check();
                    control.reserve(bytesPerRow);
                    rows.add(in.current());
                }
            }
            spool = rows;
        }
        return spool;
    }

    private static final class Guarded<T> implements Enumerator<T> {
        private final Enumerator<T> in;
        private final GuardedEnumerable<T> spec;
        /** Bytes this enumerator reserved and not yet released. */
        private long held;
        /** Rows accounted in MATERIALIZED mode. */
        private long rows;
        /** For GROUPED: the hashes of the group keys seen, open addressing; 0 marks a free slot. */
        private int[] hashes;

        private int distinct;

        Guarded(Enumerator<T> in, GuardedEnumerable<T> spec) {
            this.in = in;
            this.spec = spec;
        }

        @Override
        public T current() {
            return in.current();
        }

        @Override
        public boolean moveNext() {
            spec.control.check();
            if (!in.moveNext()) {
                return false;
            }
            if (spec.mode == MATERIALIZED && rows < spec.maxRows) {
                rows++;
                spec.control.reserve(spec.bytesPerRow);
                held += spec.bytesPerRow;
            } else if (spec.mode == GROUPED && addGroup(keyHash(in.current()))) {
                spec.control.reserve(spec.bytesPerRow);
                held += spec.bytesPerRow;
            }
            return true;
        }

        /**
         * The hash of the row's group key. A row that is not an array is a single value (the key)
         * or a generated row class whose fields are all key fields ({@link GuardedRel} converts
         * other rows to arrays), so it hashes as a whole.
         */
        private int keyHash(Object row) {
            if (!(row instanceof Object[] fields)) {
                return row == null ? 0 : row.hashCode();
            }
            int h = 1;
            for (int k : spec.keys) {
                Object v = fields[k];
                h = 31 * h + (v == null ? 0 : v.hashCode());
            }
            return h;
        }

        /** Records a key hash; true when it was not seen before (an estimate of a new group). */
        private boolean addGroup(int hash) {
            int h = hash == 0 ? 1 : hash;
            if (hashes == null) {
                hashes = new int[1024];
            } else if (distinct * 2 >= hashes.length) {
                rehash();
            }
            int mask = hashes.length - 1;
            int i = mix(h) & mask;
            while (hashes[i] != 0) {
                if (hashes[i] == h) {
                    return false;
                }
                i = (i + 1) & mask;
            }
            hashes[i] = h;
            distinct++;
            return true;
        }

        private void rehash() {
            int[] old = hashes;
            hashes = new int[old.length * 2];
            int mask = hashes.length - 1;
            for (int h : old) {
                if (h != 0) {
                    int i = mix(h) & mask;
                    while (hashes[i] != 0) {
                        i = (i + 1) & mask;
                    }
                    hashes[i] = h;
                }
            }
        }

        private static int mix(int h) {
            int x = h * 0x9E3779B9;
            return x ^ (x >>> 16);
        }

        @Override
        public void reset() {
            releaseHeld();
            in.reset();
        }

        @Override
        public void close() {
            releaseHeld();
            in.close();
        }

        private void releaseHeld() {
            spec.control.release(held);
            held = 0;
            rows = 0;
            hashes = null;
            distinct = 0;
        }
    }
}
