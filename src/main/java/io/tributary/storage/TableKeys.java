package io.tributary.storage;

import io.tributary.common.VirtualNodes;
import java.util.Arrays;

/**
 * The key layout of rows in tables and state tables: {@code [table id: 4 bytes][vnode: 2 bytes]
 * [memcomparable pk]}, all big-endian so a table's rows are contiguous and each vnode's rows scan
 * in primary-key order. Stateless and thread-safe.
 */
public final class TableKeys {
    public static final int PREFIX_LENGTH = 6;

    private TableKeys() {}

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

    /**
     * Completes a row key built in place: {@code key} holds {@link #PREFIX_LENGTH} bytes of room
     * followed by the encoded primary key; writes the table id and the vnode into that room and
     * returns {@code key}. Same bytes as {@link #rowKey}, without its copy.
     */
    public static byte[] fillPrefix(int tableId, byte[] key) {
        fillPrefix(tableId, key, key.length);
        return key;
    }

    /** {@link #fillPrefix(int, byte[])} of the key {@code buffer[0, length)}, in place. */
    public static void fillPrefix(int tableId, byte[] buffer, int length) {
        int vnode = VirtualNodes.of(buffer, PREFIX_LENGTH, length - PREFIX_LENGTH);
        writeInt(buffer, tableId);
        buffer[4] = (byte) (vnode >>> 8);
        buffer[5] = (byte) vnode;
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

    /** First key of one vnode of the table. */
    public static byte[] vnodeStart(int tableId, int vnode) {
        checkVnode(vnode);
        return prefix(tableId, vnode);
    }

    /** First key after one vnode of the table (exclusive upper bound). */
    public static byte[] vnodeEnd(int tableId, int vnode) {
        checkVnode(vnode);
        // vnode + 1 still fits the two bytes for the last vnode, and sorts before the next table
        return prefix(tableId, vnode + 1);
    }

    /**
     * Where a scan of one vnode starts: the first key after that vnode's row {@code startAfterPk}
     * (a memcomparable pk), or the vnode's first key when it is null.
     */
    public static byte[] resumeKey(int tableId, int vnode, byte[] startAfterPk) {
        byte[] start = vnodeStart(tableId, vnode);
        if (startAfterPk == null) {
            return start;
        }
        // the smallest key greater than the row's own key is that key followed by a zero byte
        byte[] key = Arrays.copyOf(start, PREFIX_LENGTH + startAfterPk.length + 1);
        System.arraycopy(startAfterPk, 0, key, PREFIX_LENGTH, startAfterPk.length);
        return key;
    }

    /**
     * The first key after every key starting with {@code prefix} (an exclusive scan bound), or
     * null when there is none (the prefix is all 0xff bytes).
     */
    public static byte[] prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] out = Arrays.copyOf(prefix, i + 1);
                out[i]++;
                return out;
            }
        }
        return null;
    }

    /** The vnode of a row key. */
    public static int vnodeOf(byte[] rowKey) {
        return (rowKey[4] & 0xff) << 8 | rowKey[5] & 0xff;
    }

    /** The memcomparable pk of a row key: the part after table id and vnode. */
    public static byte[] pkOf(byte[] rowKey) {
        return Arrays.copyOfRange(rowKey, PREFIX_LENGTH, rowKey.length);
    }

    private static byte[] prefix(int tableId, int vnode) {
        byte[] key = new byte[PREFIX_LENGTH];
        writeInt(key, tableId);
        key[4] = (byte) (vnode >>> 8);
        key[5] = (byte) vnode;
        return key;
    }

    private static void checkVnode(int vnode) {
        if (vnode < 0 || vnode >= VirtualNodes.COUNT) {
            throw new IllegalArgumentException("not a vnode: " + vnode);
        }
    }

    private static void writeInt(byte[] key, int v) {
        key[0] = (byte) (v >>> 24);
        key[1] = (byte) (v >>> 16);
        key[2] = (byte) (v >>> 8);
        key[3] = (byte) v;
    }
}
