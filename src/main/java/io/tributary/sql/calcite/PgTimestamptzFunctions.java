package io.tributary.sql.calcite;

import io.tributary.common.types.PgTimeZone;

/**
 * PostgreSQL's timestamptz functions that print in the session's zone, called by Calcite's
 * generated code (by reflection, on the thread running the query) where {@link ZonedTimestamps}
 * put them. NULL in, NULL out.
 */
public final class PgTimestamptzFunctions {
    private PgTimestamptzFunctions() {}

    /**
     * {@code ts::text} of a timestamptz, as PostgreSQL prints it: the local time, then the offset.
     *
     * @param local the value cast to timestamp (its local time in the session's zone), in Calcite's milliseconds
     * @param instant the value itself, milliseconds since 1970-01-01 UTC
     */
    public static String pg_timestamptz_text(Long local, Long instant) {
        if (local == null || instant == null) {
            return null;
        }
        return PgTimeZone.formatLocal(local * 1000L, (int) ((local - instant) / 1000L));
    }
}
