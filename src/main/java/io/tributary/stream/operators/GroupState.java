package io.tributary.stream.operators;

import java.util.Arrays;

/**
 * One group's state as the operator works on it: the group key as first seen, one accumulator per
 * aggregate call and the number of input rows in the group. Stored as one row of the operator's
 * group table: (key..., each accumulator's state columns..., row count). Actor thread only.
 */
final class GroupState {
    /** The group key values as first seen; output rows carry these, so they never change representation. */
    final Object[] key;

    final Accumulator[] accumulators;
    long rowCount;

    private GroupState(Object[] key, Accumulator[] accumulators, long rowCount) {
        this.key = key;
        this.accumulators = accumulators;
        this.rowCount = rowCount;
    }

    /** A group with no rows yet. */
    static GroupState empty(Object[] key, AggFunction[] functions) {
        Accumulator[] accs = new Accumulator[functions.length];
        for (int i = 0; i < accs.length; i++) {
            accs[i] = functions[i].create().get();
        }
        return new GroupState(key, accs, 0);
    }

    /** The group stored as {@code row} by {@link #save}. */
    static GroupState load(Object[] row, int keyWidth, AggFunction[] functions) {
        Accumulator[] accs = new Accumulator[functions.length];
        int at = keyWidth;
        for (int i = 0; i < accs.length; i++) {
            accs[i] = functions[i].load().apply(row, at);
            at += functions[i].stateTypes().size();
        }
        return new GroupState(Arrays.copyOf(row, keyWidth), accs, (Long) row[at]);
    }

    /** The row to store, {@code width} columns wide (see the class comment). */
    Object[] save(int width, AggFunction[] functions) {
        Object[] row = Arrays.copyOf(key, width);
        int at = key.length;
        for (int i = 0; i < accumulators.length; i++) {
            accumulators[i].save(row, at);
            at += functions[i].stateTypes().size();
        }
        row[at] = rowCount;
        return row;
    }

    /** The output row: the group key, then each aggregate's current value. */
    Object[] output() {
        Object[] row = Arrays.copyOf(key, key.length + accumulators.length);
        for (int i = 0; i < accumulators.length; i++) {
            row[key.length + i] = accumulators[i].result();
        }
        return row;
    }
}
