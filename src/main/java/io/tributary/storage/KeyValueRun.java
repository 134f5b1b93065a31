package io.tributary.storage;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Distinct keys with their values, packed into large byte chunks instead of two arrays per pair,
 * for a bulk load: a million staged rows are a few dozen objects rather than millions, which the
 * garbage collector would copy from the young generation to the old one before the load commits.
 * Keys are added in strictly ascending unsigned order of their bytes from {@link #orderFrom} on
 * (a table's primary-key bytes after its key prefix), which is what lets {@link #indexOf} search
 * them; their order as whole keys may differ, so the least and greatest whole keys are tracked
 * apart. Append-only; one thread at a time.
 */
public final class KeyValueRun {
    /**
     * Chunks start at {@link #FIRST_CHUNK} bytes and double up to {@link #CHUNK}, so a run of one
     * row (a single-row INSERT) costs a few hundred bytes; a pair larger than the next chunk gets a
     * chunk of its own size.
     */
    private static final int FIRST_CHUNK = 256;

    private static final int CHUNK = 1 << 20;

    private final int orderFrom;
    private final List<byte[]> chunks = new ArrayList<>();
    private byte[] current;
    private int used;
    /** Per pair: its chunk's index in the high half, its offset in the low half. */
    private long[] positions = new long[4];

    private int count;
    private byte[] least;
    private byte[] greatest;
    /** Bytes of the largest pair as {@link #copyPair} lays it out. */
    private int largestPair;

    /** @param orderFrom where the bytes start whose order {@link #add} requires to ascend */
    public KeyValueRun(int orderFrom) {
        this.orderFrom = orderFrom;
    }

    /**
     * Whether {@code key[0, keyLength)} could be added next: its bytes from {@link #orderFrom} on
     * are greater than the last key's.
     */
    public boolean ascendsAfterLast(byte[] key, int keyLength) {
        if (count == 0) {
            return true;
        }
        int last = count - 1;
        byte[] chunk = chunk(last);
        int at = keyAt(last);
        return Arrays.compareUnsigned(chunk, at + orderFrom, at + keyLength(last), key, orderFrom, keyLength) < 0;
    }

    /**
     * Appends a pair, copying the bytes. The caller has checked {@link #ascendsAfterLast}.
     */
    public void add(byte[] key, int keyLength, byte[] value, int valueLength) {
        int size = 8 + keyLength + valueLength;
        largestPair = Math.max(largestPair, size);
        if (current == null || used + size > current.length) {
            int next = current == null ? FIRST_CHUNK : Math.min(CHUNK, current.length * 2);
            current = new byte[Math.max(next, size)];
            chunks.add(current);
            used = 0;
        }
        if (count == positions.length) {
            positions = Arrays.copyOf(positions, count * 2);
        }
        positions[count++] = ((long) (chunks.size() - 1) << 32) | used;
        writeInt(current, used, keyLength);
        System.arraycopy(key, 0, current, used + 4, keyLength);
        used += 4 + keyLength;
        writeInt(current, used, valueLength);
        System.arraycopy(value, 0, current, used + 4, valueLength);
        used += 4 + valueLength;
        if (least == null || Arrays.compareUnsigned(key, 0, keyLength, least, 0, least.length) < 0) {
            least = Arrays.copyOf(key, keyLength);
        }
        if (greatest == null || Arrays.compareUnsigned(key, 0, keyLength, greatest, 0, greatest.length) > 0) {
            greatest = Arrays.copyOf(key, keyLength);
        }
    }

    /**
     * Copies pair {@code i} into {@code into} from its index 0, in one copy: the key's length (four
     * bytes), the key, the value's length (four bytes), the value. The key then lies at {@code [4,
     * 4 + k)} and the value at {@code [8 + k, position)}; returns {@code k}. For a caller that hands
     * each pair to native code through a direct buffer ({@code RunIngestion}): two small copies per
     * pair, each a bounds-checked put into direct memory, were most of a load's Java time in its
     * commit. {@code into} holds at least {@link #largestPair} bytes.
     */
    public int copyPair(int i, ByteBuffer into) {
        byte[] chunk = chunks.get((int) (positions[i] >>> 32));
        int at = (int) positions[i];
        int keyLength = readInt(chunk, at);
        int valueLength = readInt(chunk, at + 4 + keyLength);
        into.clear();
        into.put(chunk, at, 8 + keyLength + valueLength);
        return keyLength;
    }

    /** The bytes {@link #copyPair} writes for the largest pair; 0 when empty. */
    public int largestPair() {
        return largestPair;
    }

    /** Number of pairs. */
    public int size() {
        return count;
    }

    /** The least key as a whole (unsigned bytes); null when empty. */
    public byte[] least() {
        return least;
    }

    /** The greatest key as a whole (unsigned bytes); null when empty. */
    public byte[] greatest() {
        return greatest;
    }

    /** The array holding pair {@code i}; read its key at {@link #keyAt}, its value at {@link #valueAt}. */
    public byte[] chunk(int i) {
        return chunks.get((int) (positions[i] >>> 32));
    }

    /** Offset of pair {@code i}'s key in its {@link #chunk}. */
    public int keyAt(int i) {
        return (int) positions[i] + 4;
    }

    public int keyLength(int i) {
        return readInt(chunk(i), (int) positions[i]);
    }

    /** Offset of pair {@code i}'s value in its {@link #chunk}. */
    public int valueAt(int i) {
        return keyAt(i) + keyLength(i) + 4;
    }

    public int valueLength(int i) {
        return readInt(chunk(i), keyAt(i) + keyLength(i));
    }

    /** A copy of pair {@code i}'s key. */
    public byte[] key(int i) {
        int at = keyAt(i);
        return Arrays.copyOfRange(chunk(i), at, at + keyLength(i));
    }

    /** A copy of pair {@code i}'s value. */
    public byte[] value(int i) {
        int at = valueAt(i);
        return Arrays.copyOfRange(chunk(i), at, at + valueLength(i));
    }

    /** The position of {@code key} among the pairs, or -1: a binary search over the ordered bytes. */
    public int indexOf(byte[] key) {
        if (key.length < orderFrom) {
            return -1;
        }
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            byte[] chunk = chunk(mid);
            int at = keyAt(mid);
            int end = at + keyLength(mid);
            int c = Arrays.compareUnsigned(chunk, at + orderFrom, end, key, orderFrom, key.length);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return Arrays.equals(chunk, at, end, key, 0, key.length) ? mid : -1;
            }
        }
        return -1;
    }

    private static void writeInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static int readInt(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
    }
}
