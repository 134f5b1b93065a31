package io.tributary.storage;

/**
 * Stages change-log writes into an epoch's {@link WriteBuffer}, so a relation's log commits in the
 * same atomic write as the changes it records. Stateless and thread-safe; a buffer has one owner
 * at a time, as always.
 */
public final class ChangeLogWriter {
    private ChangeLogWriter() {}

    /**
     * Records that {@code pk} of relation {@code relationId} changed in {@code epoch}, folded into
     * whatever {@code buffer} already holds for that key and epoch, so the log keeps one net change
     * per key per epoch (an insert then an update is an insert of the last row; an insert then a
     * delete leaves nothing). Folding reads the buffer, so a save point rolled back takes this
     * write back too. Called while staging the change itself, into the same buffer.
     *
     * <p>{@code epoch} must be the number {@code buffer} will commit as: the engine records a
     * relation's changes per epoch and appends them while committing that epoch.
     *
     * @param vnode the vnode the row is stored under in the relation
     * @param pk the row's memcomparable primary key, without table id and vnode
     * @param oldRow the encoded row before this change (as stored), null for INSERT
     * @param newRow the encoded row after this change, null for DELETE
     * @throws IllegalArgumentException when the rows do not fit {@code op}
     * @throws IllegalStateException when the change does not follow the one already staged for
     *     the key in this epoch (see {@link LoggedChange#then})
     */
    public static void append(
            WriteBuffer buffer,
            int relationId,
            long epoch,
            int vnode,
            byte[] pk,
            ChangeLogOp op,
            byte[] oldRow,
            byte[] newRow) {
        LoggedChange change = new LoggedChange(op, oldRow, newRow); // checks the rows fit the op
        byte[] key = ChangeLogKeys.key(relationId, epoch, vnode, pk);
        byte[] staged = buffer.get(Keyspace.CHANGELOG, key);
        LoggedChange net = staged == null
                ? LoggedChange.net(oldRow, newRow)
                : LoggedChange.decode(staged).then(change);
        if (net != null) {
            buffer.put(Keyspace.CHANGELOG, key, net.encode());
        } else if (staged != null) {
            buffer.delete(Keyspace.CHANGELOG, key);
        }
    }

    /**
     * Removes the relation's log up to and including {@code throughEpoch}, once no consumer needs
     * it. {@code throughEpoch} must be committed already: appends to the epoch {@code buffer}
     * commits as must not fall in the removed range.
     */
    public static void truncate(WriteBuffer buffer, int relationId, long throughEpoch) {
        buffer.deleteRange(
                Keyspace.CHANGELOG,
                ChangeLogKeys.relationStart(relationId),
                ChangeLogKeys.epochEnd(relationId, throughEpoch));
    }

    /** Removes the relation's whole log, e.g. when the relation is dropped. */
    public static void drop(WriteBuffer buffer, int relationId) {
        buffer.deleteRange(
                Keyspace.CHANGELOG, ChangeLogKeys.relationStart(relationId), ChangeLogKeys.relationEnd(relationId));
    }
}
