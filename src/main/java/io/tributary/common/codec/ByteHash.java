package io.tributary.common.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A well-mixed 32-bit hash of a byte range, for hash maps keyed by encoded keys.
 *
 * <p>Why not {@code Arrays.hashCode}: its polynomial {@code 31 * h + b} over signed bytes maps
 * keys that differ only in their last two bytes onto a few thousand values (memcomparable
 * integers 1..50,000 got 6,321 distinct hashes), so maps of such keys degrade into long
 * collision chains. Here every step is a bijection of the state for a fixed prefix (xor a word or
 * byte, multiply by an odd constant, xor-shift), so keys of one length that differ anywhere hash
 * apart, and a final avalanche spreads the result over all 32 bits. Stateless and thread-safe.
 */
public final class ByteHash {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private ByteHash() {}

    /** The hash of {@code buf[from, from + len)}. */
    public static int of(byte[] buf, int from, int len) {
        long h = 0xcbf29ce484222325L ^ len;
        int i = from;
        int end = from + len;
        for (; i + 8 <= end; i += 8) {
            h = (h ^ (long) LONGS.get(buf, i)) * 0x9e3779b97f4a7c15L;
            h ^= h >>> 29;
        }
        for (; i < end; i++) {
            h = (h ^ (buf[i] & 0xff)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h;
    }

    /** The hash of all of {@code bytes}. */
    public static int of(byte[] bytes) {
        return of(bytes, 0, bytes.length);
    }
}
