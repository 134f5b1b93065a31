package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.plan.AggCall;
import io.tributary.plan.AggKind;
import java.util.Arrays;

/**
 * The MIN/MAX argument values of a {@link HashAggOperator}'s groups, for calls that keep their
 * values in a {@link ValueTable}: where each value change of a group goes, and how each group's
 * extreme is settled at the barrier. A group first held without rows holds all its values in
 * memory ({@link HeldValues}, at most {@link #HELD_VALUES_PER_GROUP} per call and {@link
 * #HELD_VALUES_LIMIT} in all): its extremes come from memory and its value-table writes need no
 * read. Another group's changes are summed in its {@link PendingValues} and counted against the
 * value tables in one batched read per barrier, where an extreme a removal lost is read back.
 *
 * <p>Per row ({@link #add}), a change costs no allocation but a group's first per epoch. The
 * operator calls, for each barrier, {@link #handOverPending}, then per touched group {@link
 * #writeHeld} and {@link #settle}, then {@link #written}; {@link #forget} when a group leaves
 * memory. One instance per operator, on its actor thread.
 */
final class ExtremeValues {
    /**
     * The most values a held group keeps in memory per MIN/MAX call ({@link HeldValues}); a group
     * with more gives them up at the barrier and reads its value table from then on, so memory per
     * group stays small while groups of a few dozen rows (customers' orders) never read it.
     */
    static final int HELD_VALUES_PER_GROUP = 64;

    /**
     * The most {@link HeldValues} entries of all held groups together, a few tens of megabytes;
     * groups first held beyond it read their value tables instead.
     */
    static final long HELD_VALUES_LIMIT = 1 << 19;

    /** Where a MIN/MAX argument is encoded to find it among its group's {@link PendingValues}; actor thread. */
    private final ByteWriter valueScratch = new ByteWriter(16);
    /** The values held in groups' {@link PendingValues} with a count to hand over at the barrier. */
    private long pendingValues;
    /** Whether a MIN/MAX call keeps values, so new groups hold them ({@link HeldValues}). */
    private final boolean holdsExtremeValues;

    private final AggCall[] calls;
    /** Per call, its argument's type, or null for {@code count(*)}. */
    private final DataType[] argTypes;
    /** Per call, its value table, or null when the call keeps no values. */
    private final ValueTable[] valueTables;
    /** The entries of every held group's {@link HeldValues}, bounded by {@link #HELD_VALUES_LIMIT}. */
    private long heldValueEntries;
    /** The {@link HeldValues} entries changed since the barrier: the value-table writes it will make. */
    private long heldValueWrites;

    ExtremeValues(AggCall[] calls, DataType[] argTypes, ValueTable[] valueTables) {
        this.calls = calls;
        this.argTypes = argTypes;
        this.valueTables = valueTables;
        this.holdsExtremeValues = Arrays.stream(calls)
                .anyMatch(c -> c.keepsValues() && (c.kind() == AggKind.MIN || c.kind() == AggKind.MAX));
    }

    /**
     * The values a group just loaded as {@code loaded} holds in memory: per MIN/MAX call keeping
     * values, an empty {@link HeldValues}; null (the group counts against its value tables) when
     * the group has rows or the operator holds {@link #HELD_VALUES_LIMIT} entries already.
     */
    HeldValues[] heldValues(GroupState loaded) {
        // a group without rows has no values stored either: what it gets from now on is all it holds
        if (!holdsExtremeValues || loaded.rowCount != 0 || heldValueEntries >= HELD_VALUES_LIMIT) {
            return null;
        }
        HeldValues[] values = new HeldValues[calls.length];
        for (int c = 0; c < calls.length; c++) {
            if (valueTables[c] != null && (calls[c].kind() == AggKind.MIN || calls[c].kind() == AggKind.MAX)) {
                values[c] = new HeldValues();
            }
        }
        return values;
    }

    /**
     * Adds ({@code occurrences} above zero) or removes occurrences of a MIN/MAX argument value of
     * call {@code c} to the group of {@code h}: into its held values when it has them (the extreme
     * is taken from those at the barrier), else into its pending values and its accumulator.
     */
    void add(HeldGroup h, int c, Object value, long occurrences) {
        if (h.values != null && h.values[c] != null) {
            valueScratch.reset();
            KeyCodec.encodeValue(valueScratch, argTypes[c], value);
            HeldValues heldValues = h.values[c];
            int before = heldValues.size();
            heldValueWrites += heldValues.change(valueScratch.array(), valueScratch.length(), value, occurrences);
            heldValueEntries += heldValues.size() - before;
            return;
        }
        // counted at the barrier in one batched read: an insert cannot pass the extreme
        // unseen, and a removal of the extreme marks it lost (see settle)
        countPending(h, c, value, occurrences);
        // compared in the encoding countPending left in valueScratch, not encoded again
        ((ExtremeAccumulator) h.group.accumulators[c])
                .add(value, Long.signum(occurrences), valueScratch.array(), valueScratch.length());
    }

    /**
     * Counts occurrences of a MIN/MAX argument into its group's {@link PendingValues}, or, when
     * the group already holds {@link PendingValues#CAPACITY} other values this epoch, straight into
     * the call's value table uncounted. A value lives in one of the two places for the whole epoch
     * (the pending values only grow until the barrier), so the table sees each value's occurrences
     * as before, summed. Its rule that uncounted occurrences are all inserts or all removals holds:
     * a change against the sign of a value's pending ones hands those over first, and the table
     * then counts the change against them at once.
     */
    private void countPending(HeldGroup h, int c, Object value, long sign) {
        ValueTable table = valueTables[c];
        valueScratch.reset();
        KeyCodec.encodeValue(valueScratch, argTypes[c], value);
        if (h.pending == null) {
            h.pending = new PendingValues[calls.length];
        }
        PendingValues pv = h.pending[c];
        if (pv == null) {
            pv = h.pending[c] = new PendingValues();
        }
        int i = pv.find(valueScratch.array(), valueScratch.length());
        if (i < 0) {
            if (pv.hasRoom()) {
                pv.add(valueScratch.array(), valueScratch.length(), value, sign);
                pendingValues++;
            } else {
                table.addUncounted(h.group.key, value, sign);
            }
            return;
        }
        long n = pv.countAt(i);
        if (n * sign < 0) {
            table.addUncounted(h.group.key, pv.valueAt(i), n);
            pv.clearCount(i);
            pendingValues--;
            table.addUncounted(h.group.key, value, sign);
            return;
        }
        if (n == 0) {
            pendingValues++;
        }
        pv.count(i, value, sign);
    }

    /**
     * Hands the {@link PendingValues} of the groups of {@code held} whose ids are the first {@code
     * touchedCount} of {@code touched} (the epoch's touched groups) to the value tables as uncounted
     * occurrences, before the barrier's reads of those tables; the groups keep the values' keys for
     * the next epoch.
     */
    void handOverPending(ByteKeyMap<HeldGroup> held, int[] touched, int touchedCount) {
        if (pendingValues == 0) {
            return;
        }
        for (int k = 0; k < touchedCount; k++) {
            HeldGroup h = held.get(touched[k]);
            if (h.pending == null) {
                continue;
            }
            for (int c = 0; c < calls.length; c++) {
                PendingValues pv = h.pending[c];
                if (pv == null) {
                    continue;
                }
                for (int i = 0; i < pv.size(); i++) {
                    long n = pv.countAt(i);
                    if (n != 0) {
                        valueTables[c].addUncounted(h.group.key, pv.valueAt(i), n);
                        pv.clearCount(i);
                    }
                }
            }
        }
        pendingValues = 0;
    }

    /**
     * Replaces each MIN/MAX extreme of {@code g} that a removal {@linkplain ExtremeAccumulator#lost
     * lost} this epoch by the first value its value table holds. Called at the barrier, before the
     * group's row is computed or saved: the table's first call counts every uncounted change of the
     * epoch in one batched read, so removals cost no point read each and a group whose extreme went
     * several times is scanned once.
     */
    void settle(GroupState g) {
        for (int c = 0; c < calls.length; c++) {
            if (g.accumulators[c] instanceof ExtremeAccumulator extreme && extreme.lost()) {
                extreme.replace(valueTables[c].first(g.key));
            }
        }
    }

    /**
     * Takes each MIN/MAX extreme of a group holding its values from those values, and writes the
     * epoch's changes of their counts to the value tables; a group holding more than {@link
     * #HELD_VALUES_PER_GROUP} values of a call gives them up, its extreme now settled and its
     * counts in the table's pending writes, where the uncounted path reads them. At the barrier.
     */
    void writeHeld(HeldGroup h) {
        GroupState g = h.group;
        for (int c = 0; c < calls.length; c++) {
            HeldValues values = h.values[c];
            if (values == null) {
                continue;
            }
            ExtremeAccumulator extreme = (ExtremeAccumulator) g.accumulators[c];
            int at = values.extreme(calls[c].kind() == AggKind.MAX);
            if (at < 0) {
                extreme.replace(null);
            } else {
                byte[] key = values.key(at);
                extreme.replace(values.value(at), key, key.length);
            }
            heldValueEntries += values.writeTo(valueTables[c], g.key);
            if (values.size() > HELD_VALUES_PER_GROUP) {
                heldValueEntries -= values.size();
                h.values[c] = null;
            }
        }
    }

    /** Gives up the values {@code h} held, as its group leaves the operator's memory. */
    void forget(HeldGroup h) {
        HeldValues[] values = h.values;
        if (values != null) {
            for (HeldValues v : values) {
                if (v != null) {
                    heldValueEntries -= v.size();
                }
            }
        }
    }

    /**
     * The value changes held for the barrier beyond the value tables' own: pending values with a
     * count and held values changed since the barrier (see {@link HashAggOperator#heldChanges}).
     */
    long heldChanges() {
        return pendingValues + heldValueWrites;
    }

    /** The barrier's value-table writes are made: no held value is changed since. */
    void written() {
        heldValueWrites = 0;
    }
}
