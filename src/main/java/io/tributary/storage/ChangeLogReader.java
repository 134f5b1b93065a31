package io.tributary.storage;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads change logs ({@link ChangeLogKeys}) through a {@link ReadView}. Committed log entries never
 * change until truncated, so any view of committed state reads them consistently. Thread-safe as
 * its view is; cursors belong to one thread.
 */
public final class ChangeLogReader {
    private final ReadView view;

    /** @param view the view to read; owned by the caller, who closes it after this reader's cursors */
    public ChangeLogReader(ReadView view) {
        this.view = view;
    }

    /** The first epoch after {@code afterEpoch} with changes of the relation, if the view has one. */
    public OptionalLong nextEpoch(int relationId, long afterEpoch) {
        if (afterEpoch == Long.MAX_VALUE) {
            return OptionalLong.empty();
        }
        try (KvIterator it = view.scan(
                Keyspace.CHANGELOG,
                ChangeLogKeys.epochStart(relationId, afterEpoch + 1),
                ChangeLogKeys.relationEnd(relationId))) {
            return it.next() ? OptionalLong.of(ChangeLogKeys.epochOf(it.key())) : OptionalLong.empty();
        }
    }

    /**
     * The vnodes with changes of the relation in one epoch, read in one scan of the epoch's log;
     * null when the epoch holds more than {@code maxChanges} changes (the caller then reads each
     * vnode it needs, which for so large an epoch costs little more than the scan would).
     */
    public BitSet changedVnodes(int relationId, long epoch, int maxChanges) {
        BitSet vnodes = new BitSet();
        int seen = 0;
        try (KvIterator it = view.scan(
                Keyspace.CHANGELOG,
                ChangeLogKeys.epochStart(relationId, epoch),
                ChangeLogKeys.epochEnd(relationId, epoch))) {
            while (it.next()) {
                if (++seen > maxChanges) {
                    return null;
                }
                vnodes.set(ChangeLogKeys.vnodeOf(it.key()));
            }
        }
        return vnodes;
    }

    /** Every epoch after {@code afterEpoch} with changes of the relation, ascending (one seek per epoch). */
    public List<Long> epochsAfter(int relationId, long afterEpoch) {
        List<Long> epochs = new ArrayList<>();
        OptionalLong next = nextEpoch(relationId, afterEpoch);
        while (next.isPresent()) {
            epochs.add(next.getAsLong());
            next = nextEpoch(relationId, next.getAsLong());
        }
        return epochs;
    }

    /**
     * The relation's changes of one vnode in one epoch, in pk order, starting after
     * {@code startAfterPk} (from the first when null). The caller closes the cursor.
     */
    public ChangeLogCursor scan(int relationId, long epoch, int vnode, byte[] startAfterPk) {
        return new ChangeLogCursor(view.scan(
                Keyspace.CHANGELOG,
                ChangeLogKeys.resumeKey(relationId, epoch, vnode, startAfterPk),
                ChangeLogKeys.vnodeEnd(relationId, epoch, vnode)));
    }

    /**
     * Every change of the relation in one epoch, vnode by vnode, each in pk order: one scan, for
     * a consumer that takes whole epochs (a sink's head). The caller closes the cursor.
     */
    public ChangeLogCursor scanEpoch(int relationId, long epoch) {
        return new ChangeLogCursor(view.scan(
                Keyspace.CHANGELOG,
                ChangeLogKeys.epochStart(relationId, epoch),
                ChangeLogKeys.epochEnd(relationId, epoch)));
    }
}
