package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.types.DataType;
import io.tributary.storage.ReadView;
import io.tributary.stream.KeyOrder;
import io.tributary.stream.StateTable;
import io.tributary.stream.StateWrites;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The non-null values one aggregate call has seen in each group, with their multiplicities: a
 * {@link StateTable} keyed by (group key..., value) holding (value, multiplicity BIGINT),
 * distributed by the group key. It serves DISTINCT (a value counts once while its multiplicity is
 * positive) and MIN/MAX (the next extreme when the current one is removed).
 *
 * <p>The value column sorts ascending, or descending when {@code descending} (MAX), so the group's
 * extreme is always the first entry of a scan of its prefix: one seek, however many values the
 * group holds. The stored value is the first representation seen of it ({@code 1.0} stays
 * {@code 1.0} when {@code 1.00} arrives), as the key alone cannot be decoded.
 *
 * <p>MIN and MAX inserts and removals are {@link #addUncounted added uncounted}: their
 * multiplicities are then brought up to date in one batched read of the committed state at the
 * next other call (or flush), rather than one point read per change, which dominated GROUP BY
 * backfills (inserts) and the UPDATEs of a live GROUP BY view (removals).
 *
 * <p>One actor thread only.
 */
final class ValueTable {
    private final StateTable table;
    private final int groupWidth;
    /**
     * Store keys of the (group key..., value) pairs added by {@link #addUncounted} and not yet
     * counted into the table, each with its value as first seen; a {@link #change} of a pair takes
     * its entry out, so ids below {@link ByteKeyMap#idLimit} may be freed. Looked up from {@link #keyScratch}, so a pair seen
     * again costs no allocation and a new one only its key's copy. Cleared (which shrinks it)
     * once counted: a map kept at the size a backfill's snapshot grew it to would make each later
     * count of a few values walk tens of thousands of empty slots.
     */
    private final ByteKeyMap<Object> uncounted = new ByteKeyMap<>(16);
    /** Per id of {@link #uncounted}: the net occurrences (added minus removed) awaiting counting. */
    private long[] uncountedCounts = new long[16];
    /** Per id of {@link #uncounted}: where its key's distribution key ends. */
    private int[] uncountedDistEnds = new int[16];
    /** Where {@link #addUncounted} encodes a key to look it up; actor thread. */
    private final ByteWriter keyScratch = new ByteWriter(64);

    ValueTable(int tableId, List<DataType> groupKeyTypes, DataType valueType, boolean descending, ReadView committed) {
        List<DataType> keyTypes = new ArrayList<>(groupKeyTypes);
        keyTypes.add(valueType);
        List<KeyOrder> order = new ArrayList<>();
        groupKeyTypes.forEach(t -> order.add(KeyOrder.DEFAULT));
        // the value column never holds NULL, so where NULL would sort does not matter
        order.add(descending ? new KeyOrder(true, false) : KeyOrder.DEFAULT);
        this.table = new StateTable(
                tableId, keyTypes, order, groupKeyTypes.size(), List.of(valueType, DataType.BIGINT), committed);
        this.groupWidth = groupKeyTypes.size();
    }

    /**
     * Adds (sign +1) or removes (-1) one occurrence of the non-null {@code value} in the group.
     * Occurrences of this value added uncounted are counted in with it, so the read of its stored
     * multiplicity serves both; those of other values stay for the next batched read (an UPDATE's
     * changes alternate a removal and an insert, and counting the inserts at every removal made
     * each batch one key long).
     *
     * @return whether the value appeared in or vanished from the group (multiplicity left or reached 0)
     * @throws IllegalStateException when removing a value the group does not hold
     */
    boolean change(Object[] groupKey, Object value, int sign) {
        return changeBy(groupKey, value, sign);
    }

    /** As {@link #change}, by {@code delta} occurrences (negative: removals). */
    private boolean changeBy(Object[] groupKey, Object value, long delta) {
        int distEnd = table.encodeKey(keyScratch, groupKey, value);
        int added = uncounted.size() == 0 ? -1 : uncounted.find(keyScratch.array(), keyScratch.length());
        long addedCount = 0;
        Object addedValue = null;
        if (added >= 0) {
            addedCount = uncountedCounts[added];
            addedValue = uncounted.get(added);
            uncounted.remove(added);
        }
        StateTable.StoreKey encoded =
                StateTable.StoreKey.of(Arrays.copyOf(keyScratch.array(), keyScratch.length()), distEnd);
        Object[] stored = table.get(encoded);
        long before = (stored == null ? 0 : (Long) stored[1]) + addedCount;
        long after = before + delta;
        if (after < 0) {
            throw new IllegalStateException("a value was removed from an aggregation group that never held it");
        }
        if (after == 0) {
            table.delete(encoded);
        } else {
            // a value absent before this change is stored as this change's representation of it
            Object first = before == 0 ? value : stored != null ? stored[0] : addedValue;
            table.put(encoded, new Object[] {first, after});
        }
        return before == 0 || after == 0;
    }

    /**
     * Adds (sign +1) or removes (-1) one occurrence of the non-null {@code value} in the group
     * without reading the table, so without telling whether the value appeared or vanished: for MIN
     * and MAX, whose current extreme already accounts for a value present in the group, and which
     * treat a removal of the extreme as its loss and look it up again at the barrier ({@link
     * #first}). Counted before any other call reads the table; a net count below zero then throws
     * {@link IllegalStateException}. A change against the sign of the value's uncounted ones (a
     * removal after inserts, an insert after removals) is counted at once with them by {@link
     * #change}, so an uncounted entry is all inserts or all removals: its count cannot have passed
     * through zero unseen, which would change the value's stored representation.
     */
    void addUncounted(Object[] groupKey, Object value, int sign) {
        addUncounted(groupKey, value, (long) sign);
    }

    /**
     * As {@link #addUncounted(Object[], Object, int)}, {@code count} times (negative: removals), for
     * occurrences summed per value before they reach the table ({@link PendingValues}).
     */
    void addUncounted(Object[] groupKey, Object value, long count) {
        int distEnd = table.encodeKey(keyScratch, groupKey, value);
        int id = uncounted.find(keyScratch.array(), keyScratch.length());
        if (id >= 0 && uncountedCounts[id] * Long.signum(count) < 0) {
            changeBy(groupKey, value, count);
            return;
        }
        if (id < 0) {
            id = uncounted.put(keyScratch.array(), keyScratch.length(), value);
            if (id == uncountedCounts.length) {
                uncountedCounts = Arrays.copyOf(uncountedCounts, id * 2);
                uncountedDistEnds = Arrays.copyOf(uncountedDistEnds, id * 2);
            }
            uncountedCounts[id] = 0;
            uncountedDistEnds[id] = distEnd;
        }
        uncountedCounts[id] += count;
    }

    /**
     * Writes the value's multiplicity in the group as {@code count} (a delete when 0) without
     * reading it, for a caller that holds every value of the group ({@link HeldValues}) and so
     * knows it; such a group's values are never {@link #addUncounted added uncounted}.
     */
    void store(Object[] groupKey, Object value, long count) {
        int distEnd = table.encodeKey(keyScratch, groupKey, value);
        StateTable.StoreKey key =
                StateTable.StoreKey.of(Arrays.copyOf(keyScratch.array(), keyScratch.length()), distEnd);
        if (count == 0) {
            table.delete(key);
        } else {
            table.put(key, new Object[] {value, count});
        }
    }

    /** Counts every uncounted occurrence into the table, reading the keys' committed counts in one batch. */
    private void countUncounted() {
        int n = uncounted.size();
        if (n == 0) {
            return;
        }
        List<StateTable.StoreKey> keys = new ArrayList<>(n);
        int[] ids = new int[n];
        for (int id = 0; id < uncounted.idLimit(); id++) {
            if (uncounted.live(id)) {
                ids[keys.size()] = id;
                keys.add(StateTable.StoreKey.of(uncounted.key(id), uncountedDistEnds[id]));
            }
        }
        Object[][] stored = table.getAllEncoded(keys);
        for (int i = 0; i < keys.size(); i++) {
            int id = ids[i];
            Object[] s = stored[i];
            long after = (s == null ? 0 : (Long) s[1]) + uncountedCounts[id];
            if (after < 0) {
                throw new IllegalStateException("a value was removed from an aggregation group that never held it");
            }
            if (after > 0) {
                // inserts only (see addUncounted): a stored value keeps its representation
                table.put(keys.get(i), new Object[] {s == null ? uncounted.get(id) : s[0], after});
            } else {
                // also when added and removed within the batch, as change() would have written
                table.delete(keys.get(i));
            }
        }
        uncounted.clear();
    }

    /** The group's first value in this table's order (its MIN, or MAX when descending), or null when it holds none. */
    Object first(Object[] groupKey) {
        countUncounted();
        try (StateTable.ValueIterator it = table.scan(groupKey)) {
            return it.hasNext() ? it.next()[0] : null;
        }
    }

    /** Deletes every value of the group, whose state is no longer needed (see {@code WindowCleaning}). */
    void removeGroup(Object[] groupKey) {
        countUncounted();
        List<Object[]> keys = new ArrayList<>();
        try (StateTable.ValueIterator it = table.scan(groupKey)) {
            while (it.hasNext()) {
                Object[] key = Arrays.copyOf(groupKey, groupWidth + 1);
                key[groupWidth] = it.next()[0];
                keys.add(key);
            }
        }
        for (Object[] key : keys) {
            table.delete(key);
        }
    }

    /** The changes held for the next flush: written keys and (group, value) keys awaiting their count. */
    long held() {
        return (long) table.pendingCount() + uncounted.size();
    }

    /** Hands every change since the last flush to the epoch's commit. */
    void flush(StateWrites writes) {
        countUncounted();
        table.flush(writes);
    }
}
