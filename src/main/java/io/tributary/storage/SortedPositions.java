package io.tributary.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Sorts write positions by key (unsigned bytes), equal keys by position: a stable merge sort
 * that moves each position together with its key's first 24 bytes, held as three longs (sign
 * bit flipped, so signed comparison orders them as unsigned). Comparisons read adjacent slots
 * of primitive arrays instead of chasing positions into the heap; only keys whose first 24
 * bytes tie are compared in full. A checkpoint's keys share their table id and vnode prefix,
 * and the checkpoint's sort was a tenth of a backfill's CPU when it compared through positions.
 * 24 bytes, not 16: a join side's keys (table id, vnode, join key, then the row's key) of one
 * join key tied in their first 16 bytes, and the full compares those cost (two cache misses
 * each, in the sort and again to find repeated keys) were about a fifth of a join checkpoint's
 * samples in JFR ({@code bench backfill}'s join view).
 *
 * <p>Made for one set of keys by the thread writing them out in order (a checkpoint's write
 * buffer, an index build); not thread-safe.
 */
public final class SortedPositions {
    private static final int INSERTION_RUN = 16;
    private static final VarHandle BIG_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final byte[][] keys;
    /** After {@link #sorted}: the positions, and their keys' three words, in key order. */
    private int[] pos;

    private long[] head;
    private long[] next;
    private long[] tail;

    /** @param keys the keys to order; not copied, and not to be changed while this is used */
    public SortedPositions(byte[][] keys) {
        this.keys = keys;
    }

    /**
     * Bytes {@code [from, from + 8)} of {@code key} as a big-endian word, missing bytes as zeros,
     * with the sign bit flipped: when two keys' words differ, the keys compare as the words do
     * (signed).
     */
    private static long word(byte[] key, int from) {
        if (key.length >= from + 8) {
            return (long) BIG_ENDIAN_LONG.get(key, from) ^ Long.MIN_VALUE;
        }
        long w = 0;
        for (int i = 0; i < 8; i++) {
            int at = from + i;
            w = (w << 8) | (at < key.length ? key[at] & 0xffL : 0);
        }
        return w ^ Long.MIN_VALUE;
    }

    /** The positions of {@link #keys} in key order, equal keys by position. */
    public int[] sorted() {
        int n = keys.length;
        pos = new int[n];
        head = new long[n];
        next = new long[n];
        tail = new long[n];
        for (int i = 0; i < n; i++) {
            pos[i] = i;
            head[i] = word(keys[i], 0);
            next[i] = word(keys[i], 8);
            tail[i] = word(keys[i], 16);
        }
        sort(new int[n], new long[n], new long[n], new long[n], 0, n);
        return pos;
    }

    /**
     * Whether the keys at sorted ranks {@code a} and {@code b} are equal, after {@link #sorted}:
     * by their words first, so keys that differ there (nearly all) are not loaded again.
     */
    public boolean sameKey(int a, int b) {
        return head[a] == head[b]
                && next[a] == next[b]
                && tail[a] == tail[b]
                && Arrays.equals(keys[pos[a]], keys[pos[b]]);
    }

    /** Sorts ranks {@code [from, to)}, using {@code sp..st} (as long as the arrays) to merge. */
    private void sort(int[] sp, long[] sh, long[] sn, long[] st, int from, int to) {
        if (to - from <= INSERTION_RUN) {
            for (int i = from + 1; i < to; i++) {
                int p = pos[i];
                long h = head[i];
                long x = next[i];
                long t = tail[i];
                int j = i - 1;
                while (j >= from && compare(h, x, t, p, head[j], next[j], tail[j], pos[j]) < 0) {
                    pos[j + 1] = pos[j];
                    head[j + 1] = head[j];
                    next[j + 1] = next[j];
                    tail[j + 1] = tail[j];
                    j--;
                }
                pos[j + 1] = p;
                head[j + 1] = h;
                next[j + 1] = x;
                tail[j + 1] = t;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sort(sp, sh, sn, st, from, mid);
        sort(sp, sh, sn, st, mid, to);
        int m = mid - 1;
        if (compare(head[mid], next[mid], tail[mid], pos[mid], head[m], next[m], tail[m], pos[m]) >= 0) {
            // already in order (keys written ascending): nothing to merge
            return;
        }
        int len = to - from;
        System.arraycopy(pos, from, sp, from, len);
        System.arraycopy(head, from, sh, from, len);
        System.arraycopy(next, from, sn, from, len);
        System.arraycopy(tail, from, st, from, len);
        int a = from;
        int b = mid;
        for (int i = from; i < to; i++) {
            // of equal keys the left one (the earlier position) goes first: the sort is stable
            int take = b >= to || (a < mid && compare(sh[b], sn[b], st[b], sp[b], sh[a], sn[a], st[a], sp[a]) >= 0)
                    ? a++
                    : b++;
            pos[i] = sp[take];
            head[i] = sh[take];
            next[i] = sn[take];
            tail[i] = st[take];
        }
    }

    /** Compares two keys by their words, then in full only when all three tie. */
    private int compare(long headX, long nextX, long tailX, int x, long headY, long nextY, long tailY, int y) {
        if (headX != headY) {
            return headX < headY ? -1 : 1;
        }
        if (nextX != nextY) {
            return nextX < nextY ? -1 : 1;
        }
        if (tailX != tailY) {
            return tailX < tailY ? -1 : 1;
        }
        return Arrays.compareUnsigned(keys[x], keys[y]);
    }
}
