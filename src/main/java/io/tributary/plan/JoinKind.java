package io.tributary.plan;

/** Join types a streaming hash join maintains. */
public enum JoinKind {
    INNER,
    LEFT,
    RIGHT,
    FULL;

    /** Whether unmatched left rows appear NULL-padded. */
    public boolean padsLeft() {
        return this == LEFT || this == FULL;
    }

    /** Whether unmatched right rows appear NULL-padded. */
    public boolean padsRight() {
        return this == RIGHT || this == FULL;
    }
}
