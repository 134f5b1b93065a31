package io.tributary.storage.rocksdb;

/**
 * RocksDB's serialized {@code WriteBatch} ("rep") built in Java, so that a commit of many writes
 * crosses JNI once ({@code new WriteBatch(byte[])}) instead of once per put: per-put crossings
 * were a visible share of bulk loads. The layout is RocksDB's stable on-disk WAL record format
 * ({@code db/write_batch.cc}): an 8-byte sequence (filled in by the write) and a 4-byte count,
 * both little-endian, then per write a type byte, the column family id as a varint32 unless it is
 * the default family, and the key (and value, or range end) each as a varint32 length and bytes.
 * {@code WriteBatchImageTest} checks the bytes against a batch RocksDB builds itself.
 *
 * <p>Sized exactly up front by {@link #size}, so building allocates one array. One thread.
 */
final class WriteBatchImage {
    /** Header: sequence (8) and count (4). */
    static final int HEADER = 12;

    private static final byte DELETION = 0x0;
    private static final byte VALUE = 0x1;
    private static final byte CF_DELETION = 0x4;
    private static final byte CF_VALUE = 0x5;
    private static final byte CF_RANGE_DELETION = 0xE;
    private static final byte RANGE_DELETION = 0xF;

    private final byte[] out;
    private int at = HEADER;
    private int count;

    /** @param size the exact size, the sum of {@link #size}s of the writes plus {@link #HEADER} */
    WriteBatchImage(int size) {
        this.out = new byte[size];
    }

    /**
     * Bytes a write takes in the image.
     *
     * @param second the value or range end, or null for a delete
     */
    static long size(int columnFamily, byte[] key, byte[] second) {
        long n = 1 + (columnFamily == 0 ? 0 : varintLength(columnFamily)) + varintLength(key.length) + key.length;
        if (second != null) {
            n += varintLength(second.length) + second.length;
        }
        return n;
    }

    /** Bytes a put of a key and a value of these lengths takes in the image. */
    static long size(int columnFamily, int keyLength, int valueLength) {
        return 1
                + (columnFamily == 0 ? 0 : varintLength(columnFamily))
                + varintLength(keyLength)
                + keyLength
                + varintLength(valueLength)
                + valueLength;
    }

    /** A put of the key {@code src[keyFrom, keyFrom + keyLength)} and the value {@code src[valueFrom, ...)}. */
    void put(int columnFamily, byte[] src, int keyFrom, int keyLength, int valueFrom, int valueLength) {
        type(columnFamily, VALUE, CF_VALUE);
        bytes(src, keyFrom, keyLength);
        bytes(src, valueFrom, valueLength);
    }

    void put(int columnFamily, byte[] key, byte[] value) {
        type(columnFamily, VALUE, CF_VALUE);
        bytes(key);
        bytes(value);
    }

    void delete(int columnFamily, byte[] key) {
        type(columnFamily, DELETION, CF_DELETION);
        bytes(key);
    }

    void deleteRange(int columnFamily, byte[] from, byte[] toExclusive) {
        type(columnFamily, RANGE_DELETION, CF_RANGE_DELETION);
        bytes(from);
        bytes(toExclusive);
    }

    /** The finished image; its count is written here. Fails when the sizes given did not add up. */
    byte[] toByteArray() {
        if (at != out.length) {
            throw new IllegalStateException("write batch image is " + at + " bytes, sized " + out.length);
        }
        out[8] = (byte) count;
        out[9] = (byte) (count >>> 8);
        out[10] = (byte) (count >>> 16);
        out[11] = (byte) (count >>> 24);
        return out;
    }

    private void type(int columnFamily, byte plain, byte withFamily) {
        count++;
        if (columnFamily == 0) {
            out[at++] = plain;
        } else {
            out[at++] = withFamily;
            varint(columnFamily);
        }
    }

    private void bytes(byte[] b) {
        bytes(b, 0, b.length);
    }

    private void bytes(byte[] b, int from, int length) {
        varint(length);
        System.arraycopy(b, from, out, at, length);
        at += length;
    }

    private void varint(int v) {
        while ((v & ~0x7f) != 0) {
            out[at++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out[at++] = (byte) v;
    }

    private static int varintLength(int v) {
        int n = 1;
        while ((v & ~0x7f) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }
}
