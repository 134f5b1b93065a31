package io.tributary.storage;

import io.tributary.common.VirtualNodes;
import java.util.Arrays;

/**
 * The key layout of change logs in {@link Keyspace#CHANGELOG}: {@code [relation id: 4 bytes]
 * [epoch: 8][vnode: 2][memcomparable pk]}, all big-endian. A relation's log is contiguous and
 * sorted by epoch, then vnode, then primary key, so a consumer reads one vnode of one epoch in pk
 * order, resumes after a pk with one seek, and everything up to an epoch is one range to truncate.
 * The pk is the part of a row's {@link TableKeys} key after the table id and vnode. Relation ids
 * are positive and epochs non-negative (unsigned byte order then equals numeric order). Stateless
 * and thread-safe.
 */
public final class ChangeLogKeys {
    /** Bytes before the pk: relation id, epoch, vnode. */
    public static final int PREFIX_LENGTH = 14;

    private ChangeLogKeys() {}

    /** The key of {@code pk}'s change in {@code epoch}. */
    public static byte[] key(int relationId, long epoch, int vnode, byte[] pk) {
        checkVnode(vnode);
        byte[] key = new byte[PREFIX_LENGTH + pk.length];
        writePrefix(key, relationId, epoch, vnode);
        System.arraycopy(pk, 0, key, PREFIX_LENGTH, pk.length);
        return key;
    }

    /** First key of the relation's log. */
    public static byte[] relationStart(int relationId) {
        byte[] key = new byte[4];
        writeInt(key, 0, relationId);
        return key;
    }

    /** First key after the relation's log (exclusive upper bound). */
    public static byte[] relationEnd(int relationId) {
        return relationStart(relationId + 1);
    }

    /** First key of the relation's changes in {@code epoch}. */
    public static byte[] epochStart(int relationId, long epoch) {
        checkEpoch(epoch);
        byte[] key = new byte[12];
        writeInt(key, 0, relationId);
        writeLong(key, 4, epoch);
        return key;
    }

    /** First key after the relation's changes up to and including {@code epoch}. */
    public static byte[] epochEnd(int relationId, long epoch) {
        return epoch == Long.MAX_VALUE ? relationEnd(relationId) : epochStart(relationId, epoch + 1);
    }

    /** First key of one vnode of one epoch. */
    public static byte[] vnodeStart(int relationId, long epoch, int vnode) {
        checkVnode(vnode);
        byte[] key = new byte[PREFIX_LENGTH];
        writePrefix(key, relationId, epoch, vnode);
        return key;
    }

    /** First key after one vnode of one epoch (exclusive upper bound). */
    public static byte[] vnodeEnd(int relationId, long epoch, int vnode) {
        checkVnode(vnode);
        byte[] key = new byte[PREFIX_LENGTH];
        // vnode + 1 fits the two bytes even for the last vnode, and sorts before the next epoch
        writePrefix(key, relationId, epoch, vnode + 1);
        return key;
    }

    /**
     * Where a scan of one vnode of one epoch starts: the first key after {@code startAfterPk}, or
     * the vnode's first key when it is null.
     */
    public static byte[] resumeKey(int relationId, long epoch, int vnode, byte[] startAfterPk) {
        if (startAfterPk == null) {
            return vnodeStart(relationId, epoch, vnode);
        }
        // the smallest key greater than the pk's own key is that key followed by a zero byte
        return Arrays.copyOf(key(relationId, epoch, vnode, startAfterPk), PREFIX_LENGTH + startAfterPk.length + 1);
    }

    public static long epochOf(byte[] key) {
        long v = 0;
        for (int i = 4; i < 12; i++) {
            v = v << 8 | (key[i] & 0xff);
        }
        return v;
    }

    public static int vnodeOf(byte[] key) {
        return (key[12] & 0xff) << 8 | key[13] & 0xff;
    }

    public static byte[] pkOf(byte[] key) {
        return Arrays.copyOfRange(key, PREFIX_LENGTH, key.length);
    }

    private static void writePrefix(byte[] key, int relationId, long epoch, int vnode) {
        checkEpoch(epoch);
        writeInt(key, 0, relationId);
        writeLong(key, 4, epoch);
        key[12] = (byte) (vnode >>> 8);
        key[13] = (byte) vnode;
    }

    private static void checkEpoch(long epoch) {
        if (epoch < 0) {
            throw new IllegalArgumentException("epochs are non-negative: " + epoch);
        }
    }

    private static void checkVnode(int vnode) {
        if (vnode < 0 || vnode >= VirtualNodes.COUNT) {
            throw new IllegalArgumentException("not a vnode: " + vnode);
        }
    }

    private static void writeInt(byte[] key, int at, int v) {
        key[at] = (byte) (v >>> 24);
        key[at + 1] = (byte) (v >>> 16);
        key[at + 2] = (byte) (v >>> 8);
        key[at + 3] = (byte) v;
    }

    private static void writeLong(byte[] key, int at, long v) {
        for (int i = 0; i < 8; i++) {
            key[at + i] = (byte) (v >>> (56 - 8 * i));
        }
    }
}
