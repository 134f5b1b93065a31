package io.tributary.meta;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

/**
 * The most state keys each of a test's views may hold, for the state-cleaning tests: views named
 * {@code prefix0, prefix1, ...}, view {@code i} bounded by {@code bounds[i]}. Checks the bounds
 * while rows keep arriving, remembers the most keys seen (printed to show the margin), and checks
 * that each bound is far below the rows, so a view that forgot nothing would break it. Used from
 * the test thread.
 */
final class StateKeyBounds {
    private final String prefix;
    private final int[] bounds;
    private final long[] mostKeys;

    StateKeyBounds(String prefix, int... bounds) {
        this.prefix = prefix;
        this.bounds = bounds.clone();
        this.mostKeys = new long[bounds.length];
    }

    /** Every view's committed state keys in {@code served} are at most its bound. */
    void check(ServedDatabase served, String when) {
        for (int i = 0; i < bounds.length; i++) {
            long keys = served.stateKeys(prefix + i);
            mostKeys[i] = Math.max(mostKeys[i], keys);
            assertTrue(
                    keys <= bounds[i],
                    when + ": " + prefix + i + " holds " + keys + " state keys, more than " + bounds[i]);
        }
    }

    /** Every bound times {@code factor} is below {@code rows}: the bound is far below what state would hold. */
    void checkFarBelow(long rows, int factor, String when) {
        for (int i = 0; i < bounds.length; i++) {
            assertTrue(
                    (long) factor * bounds[i] < rows,
                    when + ": " + prefix + i + "'s bound " + bounds[i] + " against " + rows + " rows; most keys seen "
                            + Arrays.toString(mostKeys));
        }
    }

    /** The most keys seen per view, in view order. */
    @Override
    public String toString() {
        return Arrays.toString(mostKeys);
    }
}
