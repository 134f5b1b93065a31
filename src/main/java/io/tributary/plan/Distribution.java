package io.tributary.plan;

import java.util.Arrays;

/**
 * How a stream is split among parallel actors: by the vnode of the hash of {@code keys} (see
 * {@code io.tributary.stream.Vnodes}), all rows to one actor, {@link #SOME} way the rows cannot
 * express (by columns a projection dropped, or a full outer join's either side), or, only as an
 * {@link ExchangeNode}'s, {@link #BROADCAST}: every row to every actor of the next fragment (a
 * join's small side, see {@link HashJoinNode#broadcastsRight()}).
 */
public record Distribution(Kind kind, int[] keys) {
    public enum Kind {
        HASH,
        SINGLE,
        SOME,
        BROADCAST
    }

    public static final Distribution SINGLE = new Distribution(Kind.SINGLE, new int[0]);
    /** Spread among actors by no key of the rows; satisfies no requirement. */
    public static final Distribution SOME = new Distribution(Kind.SOME, new int[0]);

    /** Every row to every actor; only an exchange's, never a node's output. */
    public static final Distribution BROADCAST = new Distribution(Kind.BROADCAST, new int[0]);

    public static Distribution hash(int... keys) {
        return new Distribution(Kind.HASH, keys.clone());
    }

    /**
     * Whether rows land on the same vnodes under both: same kind and the same key columns in order.
     * {@link #SOME} satisfies nothing.
     */
    public boolean satisfies(Distribution required) {
        return kind != Kind.SOME && kind == required.kind && Arrays.equals(keys, required.keys);
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
        return switch (kind) {
            case SINGLE -> "single";
            case SOME -> "some";
            case BROADCAST -> "broadcast";
            case HASH ->
                "hash"
                        + Arrays.toString(
                                Arrays.stream(keys).mapToObj(k -> "$" + k).toArray());
        };
    }
}
