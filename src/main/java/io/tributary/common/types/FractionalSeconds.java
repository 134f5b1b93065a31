package io.tributary.common.types;

/**
 * The precision of {@code timestamp(p)}, {@code timestamptz(p)} and {@code time(p)}: rounding a
 * value of microseconds to p fraction digits as PostgreSQL's {@code AdjustTimestampForTypmod} and
 * {@code AdjustTimeForTypmod} do. Stateless.
 */
public final class FractionalSeconds {
    /** The largest precision; PostgreSQL reduces a larger declared one to it (with a WARNING). */
    public static final int MAX_PRECISION = 6;

    private static final long[] SCALES = {1_000_000L, 100_000L, 10_000L, 1_000L, 100L, 10L, 1L};

    private FractionalSeconds() {}

    /** 2000-01-01 00:00 in microseconds from 1970: PostgreSQL's timestamps count from it. */
    private static final long POSTGRES_EPOCH = 946_684_800_000_000L;

    /**
     * A timestamp (or timestamptz) of microseconds rounded to {@code precision} digits as PostgreSQL
     * rounds it: halves away from its epoch, 2000-01-01 ({@code '1990-01-01 00:00:00.5'::timestamp(0)}
     * is {@code 00:00:00}, the same half in 2010 gives {@code 00:00:01}); infinities and a precision
     * outside 0..5 leave it as it is.
     */
    public static long roundTimestamp(long micros, int precision) {
        if (precision < 0 || precision >= MAX_PRECISION || !InfiniteDateTimes.isFinite(micros)) {
            return micros;
        }
        long scale = SCALES[precision];
        long half = scale / 2;
        long fromEpoch = micros - POSTGRES_EPOCH;
        long rounded = fromEpoch >= 0 ? (fromEpoch + half) / scale * scale : -((-fromEpoch + half) / scale * scale);
        return rounded + POSTGRES_EPOCH;
    }

    /**
     * A time of day in microseconds rounded to {@code precision} digits, halves up (PostgreSQL may
     * give 24:00:00 for a time just before midnight, as here).
     */
    public static long roundTime(long micros, int precision) {
        if (precision < 0 || precision >= MAX_PRECISION) {
            return micros;
        }
        long scale = SCALES[precision];
        return (micros + scale / 2) / scale * scale;
    }

    /**
     * An interval's time part in microseconds rounded to {@code precision} digits as PostgreSQL's
     * {@code AdjustIntervalForTypmod} rounds {@code interval(p)}: halves away from zero; a
     * precision outside 0..5 leaves it as it is.
     */
    public static long roundIntervalTime(long micros, int precision) {
        if (precision < 0 || precision >= MAX_PRECISION) {
            return micros;
        }
        long scale = SCALES[precision];
        long half = scale / 2;
        return micros >= 0 ? (micros + half) / scale * scale : -((-micros + half) / scale * scale);
    }
}
