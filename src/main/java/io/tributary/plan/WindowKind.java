package io.tributary.plan;

/** The window functions an {@link OverWindowNode} computes. */
public enum WindowKind {
    ROW_NUMBER,
    RANK,
    DENSE_RANK,
    LAG,
    LEAD,
    FIRST_VALUE,
    LAST_VALUE,
    SUM,
    /** SUM that is 0, not NULL, over no rows (Calcite's {@code $SUM0}). */
    SUM0,
    COUNT,
    AVG,
    MIN,
    MAX;

    /** Whether the value depends only on the row's position among its partition's ordered rows. */
    public boolean isRanking() {
        return this == ROW_NUMBER || this == RANK || this == DENSE_RANK;
    }

    /** Whether the value is computed over the call's frame (the others ignore the frame). */
    public boolean usesFrame() {
        return !isRanking() && this != LAG && this != LEAD;
    }
}
