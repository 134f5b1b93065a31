package io.tributary.meta.sink;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Where a backfill copied in parallel key ranges stands: for each range its last key (inclusive
 * upper bound, none for the last range), the last key it delivered and whether it is done. Stored
 * in the target's {@code tributary_backfill_position} row of the alias, {@code vnode} {@link
 * #RANGED}, {@code last_key} this encoding; each range's chunk transaction rewrites its own entry
 * under a row lock, in the transaction that commits the chunk's rows.
 *
 * <p>Encoding: the range count (one byte), then per range a flag (0 nothing delivered, 1 a last
 * key follows, 2 done), the last key when flagged 1, and for every range but the last its upper
 * bound; keys as a four-byte length and the bytes. Mutable; one thread at a time.
 */
final class RangedPosition {
    /** The position row's vnode when it holds this encoding. */
    static final int RANGED = -2;

    private static final byte NOTHING = 0;
    private static final byte AT_KEY = 1;
    private static final byte DONE = 2;

    private final byte[][] upTo;
    private final byte[][] last;
    private final boolean[] done;

    private RangedPosition(byte[][] upTo, byte[][] last, boolean[] done) {
        this.upTo = upTo;
        this.last = last;
        this.done = done;
    }

    /** A fresh position over the ranges {@code cuts} make (see {@code KeyOrderedSnapshot.cuts}). */
    static RangedPosition fresh(byte[][] cuts) {
        int n = cuts.length + 1;
        byte[][] upTo = Arrays.copyOf(cuts, n);
        return new RangedPosition(upTo, new byte[n][], new boolean[n]);
    }

    static RangedPosition decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int n = in.get();
        RangedPosition p = new RangedPosition(new byte[n][], new byte[n][], new boolean[n]);
        for (int r = 0; r < n; r++) {
            byte flag = in.get();
            p.done[r] = flag == DONE;
            if (flag == AT_KEY) {
                p.last[r] = key(in);
            }
            if (r < n - 1) {
                p.upTo[r] = key(in);
            }
        }
        return p;
    }

    byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(ranges());
        for (int r = 0; r < ranges(); r++) {
            out.write(done[r] ? DONE : last[r] != null ? AT_KEY : NOTHING);
            if (!done[r] && last[r] != null) {
                putKey(out, last[r]);
            }
            if (r < ranges() - 1) {
                putKey(out, upTo[r]);
            }
        }
        return out.toByteArray();
    }

    int ranges() {
        return upTo.length;
    }

    /** Range {@code r}'s last key, inclusive; null for the last range (no bound). */
    byte[] upTo(int r) {
        return upTo[r];
    }

    /** Where range {@code r} resumes: after this key (its last delivered, or the previous range's bound); null from the start. */
    byte[] after(int r) {
        if (last[r] != null) {
            return last[r];
        }
        return r == 0 ? null : upTo[r - 1];
    }

    boolean done(int r) {
        return done[r];
    }

    boolean allDone() {
        for (boolean d : done) {
            if (!d) {
                return false;
            }
        }
        return true;
    }

    /** Whether range {@code r} stands where {@code other}'s range {@code r} does. */
    boolean sameRange(int r, RangedPosition other) {
        return other != null
                && other.ranges() == ranges()
                && other.done[r] == done[r]
                && Arrays.equals(other.last[r], last[r]);
    }

    /** Records that range {@code r} delivered through {@code key}, or all of it when {@code finished}. */
    void advance(int r, byte[] key, boolean finished) {
        if (finished) {
            done[r] = true;
            last[r] = null;
        } else {
            last[r] = key;
        }
    }

    /** Sets range {@code r}'s entry to {@code other}'s. */
    void copyRange(int r, RangedPosition other) {
        done[r] = other.done[r];
        last[r] = other.last[r];
    }

    private static byte[] key(ByteBuffer in) {
        byte[] k = new byte[in.getInt()];
        in.get(k);
        return k;
    }

    private static void putKey(ByteArrayOutputStream out, byte[] key) {
        out.write(key.length >>> 24);
        out.write(key.length >>> 16);
        out.write(key.length >>> 8);
        out.write(key.length);
        out.write(key, 0, key.length);
    }
}
