package io.tributary.stream;

/**
 * One group's inserted rows as a sending actor summed them before an exchange (a partial
 * aggregate): the words and first-seen values of the receiving aggregation's per-group stretch,
 * in the layout that aggregation's calls give it. A {@link Chunk} row that carries one stands for
 * all the rows summed here; of that row only the group key counts, a key the sender saw for the
 * group. Never modified once built.
 */
public final class SummedInserts {
    private final long[] words;
    private final Object[] firstSeen;

    /** Takes the arrays, which must not change afterwards. */
    public SummedInserts(long[] words, Object[] firstSeen) {
        this.words = words;
        this.firstSeen = firstSeen;
    }

    /** The sums; word 0 is the number of rows. */
    public long word(int i) {
        return words[i];
    }

    public int words() {
        return words.length;
    }

    /** The representation a MIN/MAX value slot was first seen with, or null for an unused slot. */
    public Object firstSeen(int slot) {
        return firstSeen[slot];
    }
}
