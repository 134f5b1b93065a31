package io.tributary.plan;

/**
 * One bound of a {@link TemporalFilterNode}: the row's time compared with the current time plus a
 * constant, {@code time > now + offsetMicros} ({@code upper} false) or {@code time < now +
 * offsetMicros} ({@code upper} true), inclusive when {@code inclusive} ({@code >=}, {@code <=}).
 * As the current time grows, a row fails a lower bound for good and passes an upper bound for
 * good, which is what lets the operator forget rows.
 */
public record TimeBound(boolean upper, boolean inclusive, long offsetMicros) {
    /** Whether a row whose time is {@code time} passes the bound when the current time is {@code nowMicros}. */
    public boolean passes(long time, long nowMicros) {
        long limit = saturatedAdd(nowMicros, offsetMicros);
        if (upper) {
            return inclusive ? time <= limit : time < limit;
        }
        return inclusive ? time >= limit : time > limit;
    }

    /** {@code now + offset}, clamped to the range of a long rather than wrapping around. */
    public static long saturatedAdd(long now, long offset) {
        long sum = now + offset;
        if (((now ^ sum) & (offset ^ sum)) < 0) {
            return offset < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }

    @Override
    public String toString() {
        return "$time " + (upper ? "<" : ">") + (inclusive ? "=" : "") + " now() "
                + (offsetMicros < 0 ? "- " + -offsetMicros : "+ " + offsetMicros) + "us";
    }
}
