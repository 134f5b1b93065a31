package io.tributary.common.types;

/**
 * A PostgreSQL interval: months, days and microseconds are kept apart because their lengths vary
 * (a month is not always 30 days, a day is not always 24 hours across DST).
 */
public record Interval(int months, int days, long micros) implements Comparable<Interval> {

    private static final long MICROS_PER_DAY = 86_400_000_000L;

    /** Ordering as PostgreSQL compares intervals: by total length with 30-day months, 24-hour days. */
    @Override
    public int compareTo(Interval o) {
        int byDays = Long.compare(normalizedDays(), o.normalizedDays());
        return byDays != 0 ? byDays : Long.compare(microsOfDay(), o.microsOfDay());
    }

    /**
     * Equal as PostgreSQL's {@code =} on intervals: the same length with 30-day months and 24-hour
     * days ({@code '1 mon'} equals {@code '30 days'}), as {@link #compareTo} and the key encoding
     * order them, so that grouping and DISTINCT agree with comparisons.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof Interval other && compareTo(other) == 0;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(normalizedDays()) * 31 + Long.hashCode(microsOfDay());
    }

    /** Whole days of the length, months counted as 30 days; cannot overflow. */
    public long normalizedDays() {
        return months * 30L + days + Math.floorDiv(micros, MICROS_PER_DAY);
    }

    /** The rest of the length below one day, in [0, one day). */
    public long microsOfDay() {
        return Math.floorMod(micros, MICROS_PER_DAY);
    }
}
