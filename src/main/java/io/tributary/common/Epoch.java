package io.tributary.common;

/**
 * Epoch numbers: {@code unix_millis << 16 | seq}. They grow strictly and embed wall time, so a
 * committed epoch tells when it was committed and a restarted server never reuses one.
 */
public final class Epoch {
    public static final long NONE = 0L;
    private static final int SEQ_BITS = 16;

    private Epoch() {}

    /** The next epoch after {@code previous} at wall time {@code nowMillis}; always greater than previous. */
    public static long next(long previous, long nowMillis) {
        long candidate = nowMillis << SEQ_BITS;
        return Math.max(candidate, previous + 1);
    }

    public static long millis(long epoch) {
        return epoch >>> SEQ_BITS;
    }
}
