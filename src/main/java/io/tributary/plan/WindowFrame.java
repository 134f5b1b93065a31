package io.tributary.plan;

/**
 * The rows of its partition a framed window function reads for each row. In ROWS mode the bounds
 * are row offsets from the current row (negative: preceding); in RANGE mode the only bounds are
 * unbounded and {@link #CURRENT} (the current row's last or first peer: rows equal in the ORDER
 * BY columns).
 */
public record WindowFrame(boolean rows, long start, long end) {
    public static final long UNBOUNDED_PRECEDING = Long.MIN_VALUE;
    public static final long UNBOUNDED_FOLLOWING = Long.MAX_VALUE;
    public static final long CURRENT = 0;

    /** PostgreSQL's default with ORDER BY: from the partition's start through the current row's peers. */
    public static final WindowFrame DEFAULT = new WindowFrame(false, UNBOUNDED_PRECEDING, CURRENT);

    @Override
    public String toString() {
        return (rows ? "rows " : "range ") + bound(start) + " and " + bound(end);
    }

    private static String bound(long b) {
        if (b == UNBOUNDED_PRECEDING) {
            return "unbounded preceding";
        }
        if (b == UNBOUNDED_FOLLOWING) {
            return "unbounded following";
        }
        if (b == CURRENT) {
            return "current row";
        }
        return Math.abs(b) + (b < 0 ? " preceding" : " following");
    }
}
