package io.tributary.storage.rocksdb;

import java.nio.ByteBuffer;

/**
 * One key and value copied into a reused direct buffer, for {@link SstOutput#put(ByteBuffer,
 * ByteBuffer)}: the JNI put of two heap arrays copies each into native memory it allocates and
 * frees, which was most of a join checkpoint's SST write in JFR; bulk loads do the same ({@code
 * RunIngestion}). One thread.
 */
final class PairBuffer {
    private ByteBuffer pair = ByteBuffer.allocateDirect(4096);
    /** Views of {@link #pair}: the key's bytes, then the value's. */
    ByteBuffer key = pair.duplicate();

    ByteBuffer value = pair.duplicate();

    void fill(byte[] k, byte[] v) {
        fill(k, k.length, v);
    }

    /** As {@link #fill(byte[], byte[])} with the key's first {@code keyLength} bytes. */
    void fill(byte[] k, int keyLength, byte[] v) {
        fill(k, keyLength, v, v.length);
    }

    /** As {@link #fill(byte[], int, byte[])} with the value's first {@code valueLength} bytes. */
    void fill(byte[] k, int keyLength, byte[] v, int valueLength) {
        int need = keyLength + valueLength;
        if (need > pair.capacity()) {
            pair = ByteBuffer.allocateDirect(Math.max(need, pair.capacity() * 2));
            key = pair.duplicate();
            value = pair.duplicate();
        }
        pair.clear();
        pair.put(k, 0, keyLength).put(v, 0, valueLength);
        key.clear().limit(keyLength);
        value.clear().position(keyLength).limit(need);
    }
}
