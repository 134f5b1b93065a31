package io.tributary.storage;

import io.tributary.common.VirtualNodes;

/**
 * The key layout of rows in tables and state tables: {@code [table id: 4 bytes][vnode: 2 bytes]
 * [memcomparable pk]}, all big-endian so a table's rows are contiguous and each vnode's rows scan
 * in primary-key order. Stateless and thread-safe.
 */
public final class TableKeys {
    public static final int PREFIX_LENGTH = 6;

    private TableKeys() {
    }

    /** The full key for an encoded primary key; the vnode is derived from the pk bytes. */
    public static byte[] rowKey(int tableId, byte[] encodedPk) {
        int vnode = VirtualNodes.of(encodedPk);
        byte[] key = new byte[PREFIX_LENGTH + encodedPk.length];
        writeInt(key, tableId);
        key[4] = (byte) (vnode >>> 8);
        key[5] = (byte) vnode;
        System.arraycopy(encodedPk, 0, key, PREFIX_LENGTH, encodedPk.length);
        return key;
    }

    /** First key of the table. */
    public static byte[] tableStart(int tableId) {
        byte[] key = new byte[4];
        writeInt(key, tableId);
        return key;
    }

    /** First key after the table (exclusive upper bound). */
    public static byte[] tableEnd(int tableId) {
        byte[] key = new byte[4];
        writeInt(key, tableId + 1);
        return key;
    }

    private static void writeInt(byte[] key, int v) {
        key[0] = (byte) (v >>> 24);
        key[1] = (byte) (v >>> 16);
        key[2] = (byte) (v >>> 8);
        key[3] = (byte) v;
    }
}
