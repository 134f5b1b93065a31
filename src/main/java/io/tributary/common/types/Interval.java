package io.tributary.common.types;

/**
 * A PostgreSQL interval: months, days and microseconds are kept apart because their lengths vary
 * (a month is not always 30 days, a day is not always 24 hours across DST).
 */
public record Interval(int months, int days, long micros) implements Comparable<Interval> {

    /** Ordering as PostgreSQL compares intervals: by total length with 30-day months, 24-hour days. */
    @Override
    public int compareTo(Interval o) {
        return Long.compare(approxMicros(), o.approxMicros());
    }

    public long approxMicros() {
        return (months * 30L + days) * 86_400_000_000L + micros;
    }
}
