package io.tributary.common.types;

/**
 * A time zone as PostgreSQL applies one to a value: a zone name ({@link PgTimeZone}) or a time zone
 * abbreviation ({@link ZoneAbbreviation}). Implementations are immutable and thread-safe. Times are
 * microseconds since 1970-01-01: UTC for an instant, local for a local time.
 */
public interface PgZone {
    /** Seconds east of Greenwich at the instant {@code micros}. */
    int offsetSeconds(long micros);

    /** The instant of the local time {@code localMicros} in this zone. */
    long toInstant(long localMicros);
}
