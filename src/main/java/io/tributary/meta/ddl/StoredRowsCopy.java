package io.tributary.meta.ddl;

/**
 * A binary COPY body of stored rows, as a worker reads a view job's snapshot (see {@code
 * RemoteViewAdoption.snapshotPiece}): PostgreSQL's signature and two zero words, then per row a
 * tuple of two bytea fields (the stored value, the primary key), then the -1 trailer. Appends into
 * one growing array. One thread.
 */
final class StoredRowsCopy {
    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};

    private byte[] bytes = new byte[64 * 1024];
    private int length;

    StoredRowsCopy() {
        System.arraycopy(SIGNATURE, 0, bytes, 0, SIGNATURE.length);
        length = SIGNATURE.length + 8; // flags and header extension length, both 0
    }

    /** Adds one row: its stored value and its memcomparable primary key. */
    void row(byte[] value, byte[] pk) {
        ensure(2 + 4 + value.length + 4 + pk.length);
        putShort(2);
        putBytes(value);
        putBytes(pk);
    }

    /** Adds the trailer; the body is the returned array, exactly as long as what was written. */
    byte[] finish() {
        ensure(2);
        putShort(-1);
        return java.util.Arrays.copyOf(bytes, length);
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }

    private void putShort(int v) {
        bytes[length++] = (byte) (v >>> 8);
        bytes[length++] = (byte) v;
    }

    private void putBytes(byte[] field) {
        int n = field.length;
        bytes[length++] = (byte) (n >>> 24);
        bytes[length++] = (byte) (n >>> 16);
        bytes[length++] = (byte) (n >>> 8);
        bytes[length++] = (byte) n;
        System.arraycopy(field, 0, bytes, length, n);
        length += n;
    }
}
