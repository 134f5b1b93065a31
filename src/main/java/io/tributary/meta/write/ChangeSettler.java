package io.tributary.meta.write;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.write.TableWriter.Change;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Settles one statement's staged changes to a table into one final change per key, for
 * {@link TableWriter#apply}; on the statement's thread, before the barrier lock is taken.
 */
final class ChangeSettler {
    private final List<Change> changes;
    /** Whether the statement is an INSERT ... ON CONFLICT, which keeps a key's first proposal. */
    private final boolean onConflict;
    /** Whether that ON CONFLICT updates rows (DO UPDATE), which may not meet one key twice. */
    private final boolean conflictUpdates;
    /** The 23505 error naming the key of an encoded row. */
    private final Function<byte[], TributaryException> duplicate;

    /** @param changes the staged changes in statement order */
    ChangeSettler(
            List<Change> changes,
            boolean onConflict,
            boolean conflictUpdates,
            Function<byte[], TributaryException> duplicate) {
        this.changes = changes;
        this.onConflict = onConflict;
        this.conflictUpdates = conflictUpdates;
        this.duplicate = duplicate;
    }

    /** Statements up to this many changes settle by sorting primitive (hash, position) pairs. */
    private static final int PACKED_LIMIT = 1 << 24;

    /**
     * One final change per key (the staged list itself when keys ascend, see {@code ascending}): the last change wins; an insert after a delete of the same key in
     * this statement replaces instead of requiring a new key; two inserts of one key are a
     * duplicate. Changes are grouped by sorting {@code hash << 24 | position} as primitive longs,
     * an order of magnitude cheaper than sorting the keys themselves; equal keys have equal
     * hashes, and the rare unequal keys sharing a hash are told apart by their bytes.
     */
    List<Change> settle(boolean ascending) {
        int n = changes.size();
        if (ascending) {
            return changes;
        }
        if (n >= PACKED_LIMIT) {
            List<Change> out = new ArrayList<>(n);
            Change[] sorted = changes.toArray(new Change[0]);
            Arrays.sort(sorted, (a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
            int i = 0;
            while (i < n) {
                int j = i;
                List<Change> group = new ArrayList<>();
                while (j < n && Arrays.equals(sorted[j].key(), sorted[i].key())) {
                    group.add(sorted[j++]);
                }
                out.add(settleKey(group));
                i = j;
            }
            return out;
        }
        long[] order = new long[n];
        for (int i = 0; i < n; i++) {
            order[i] = (hash40(changes.get(i).key()) << 24) | i;
        }
        Arrays.sort(order);
        if (distinctHashes(order)) {
            // every key changed once, so each change is final: the common bulk load keeps its list
            return changes;
        }
        List<Change> out = new ArrayList<>(n);
        int i = 0;
        while (i < n) {
            int j = i + 1;
            while (j < n && (order[j] >>> 24) == (order[i] >>> 24)) {
                j++;
            }
            if (j == i + 1) {
                // a key changed once is its own final change (what settleKey returns for it)
                out.add(changes.get((int) (order[i] & (PACKED_LIMIT - 1))));
            } else {
                settleSharedHash(order, i, j, out);
            }
            i = j;
        }
        return out;
    }

    /** Whether no two of the sorted {@code hash << 24 | position} entries share a hash. */
    private static boolean distinctHashes(long[] order) {
        for (int i = 1; i < order.length; i++) {
            if ((order[i] >>> 24) == (order[i - 1] >>> 24)) {
                return false;
            }
        }
        return true;
    }

    /** Changes at {@code order[from..to)} share a hash; group them by key, keeping statement order. */
    private void settleSharedHash(long[] order, int from, int to, List<Change> out) {
        List<Change> pending = new ArrayList<>();
        for (int k = from; k < to; k++) {
            pending.add(changes.get((int) (order[k] & (PACKED_LIMIT - 1))));
        }
        while (!pending.isEmpty()) {
            byte[] key = pending.get(0).key();
            List<Change> group = new ArrayList<>();
            pending.removeIf(c -> Arrays.equals(c.key(), key) && group.add(c));
            out.add(settleKey(group));
        }
    }

    /** The final change for one key's changes, given in statement order. */
    private Change settleKey(List<Change> group) {
        if (onConflict) {
            if (group.size() > 1 && conflictUpdates) {
                throw affectedTwice();
            }
            return group.get(0);
        }
        boolean deletedHere = false;
        boolean insertedHere = false;
        boolean requireNew = false;
        for (Change c : group) {
            if (c.row() == null) {
                deletedHere = true;
                insertedHere = false;
            } else if (c.insert()) {
                if (insertedHere) {
                    throw duplicate.apply(c.row());
                }
                insertedHere = true;
                requireNew = !deletedHere;
            }
        }
        Change last = group.get(group.size() - 1);
        return last.row() == null || last.insert() == requireNew
                ? last
                : new Change(last.key(), last.row(), requireNew && last.insert(), last.values());
    }

    /** 40 well-mixed bits of a key (FNV-1a 64, then a finalizer). */
    private static long hash40(byte[] key) {
        long h = 0xcbf29ce484222325L;
        for (byte b : key) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h >>> 24;
    }

    /** PostgreSQL's 21000 for a DO UPDATE that two proposed rows with one key (or unique value) would both update. */
    static TributaryException affectedTwice() {
        return new TributaryException(
                SqlState.CARDINALITY_VIOLATION,
                "ON CONFLICT DO UPDATE command cannot affect row a second time",
                0,
                null,
                "Ensure that no rows proposed for insertion within the same command have duplicate constrained values.",
                null);
    }
}
