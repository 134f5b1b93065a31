package io.tributary.connector.postgres;

/** PostgreSQL SQLSTATEs this connector reports that {@link io.tributary.common.SqlState} has no name for. */
final class CdcStates {
    /** A setting or object upstream is not as change data capture needs it (wal_level, a dropped slot). */
    static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";
    static final String DUPLICATE_OBJECT = "42710";
    static final String INSUFFICIENT_PRIVILEGE = "42501";

    private CdcStates() {
    }
}
