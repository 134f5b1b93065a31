package io.tributary.common;

/**
 * Tables and state tables are split into {@link #COUNT} virtual nodes by a hash of their
 * distribution key. The hash is part of the on-disk format: changing it orphans stored rows.
 */
public final class VirtualNodes {
    public static final int COUNT = 256;

    private VirtualNodes() {}

    /** The vnode of a memcomparable-encoded distribution key (FNV-1a, then folded). */
    public static int of(byte[] encodedKey, int offset, int length) {
        int h = 0x811c9dc5;
        for (int i = offset; i < offset + length; i++) {
            h ^= encodedKey[i] & 0xff;
            h *= 0x01000193;
        }
        h ^= h >>> 16;
        h ^= h >>> 8;
        return h & (COUNT - 1);
    }

    public static int of(byte[] encodedKey) {
        return of(encodedKey, 0, encodedKey.length);
    }
}
