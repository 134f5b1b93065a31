package io.tributary.plan;

import java.util.Arrays;

/**
 * How a stream is split among parallel actors: by the vnode of the hash of {@code keys} (see
 * {@code io.tributary.stream.Vnodes}), or all rows to one actor.
 */
public record Distribution(Kind kind, int[] keys) {
    public enum Kind {
        HASH,
        SINGLE
    }

    public static final Distribution SINGLE = new Distribution(Kind.SINGLE, new int[0]);

    public static Distribution hash(int... keys) {
        return new Distribution(Kind.HASH, keys.clone());
    }

    /** Whether rows land on the same vnodes under both: same kind and the same key columns in order. */
    public boolean satisfies(Distribution required) {
        return kind == required.kind && Arrays.equals(keys, required.keys);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Distribution d && d.kind == kind && Arrays.equals(d.keys, keys);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + Arrays.hashCode(keys);
    }

    @Override
    public String toString() {
        return kind == Kind.SINGLE ? "single" : "hash" + Arrays.toString(Arrays.stream(keys).mapToObj(k -> "$" + k).toArray());
    }
}
