package io.tributary.catalog.pg;

import java.util.List;

/**
 * What the catalog shows of the session reading it: its user (the one role) and its settings
 * ({@code pg_settings}). Called on the session's thread while a catalog query runs.
 */
public interface PgSession {
    /** The user the session authenticated as. */
    String user();

    /** The session's settings, in display order. */
    List<Setting> settings();

    /** The current value of setting {@code name} (lower case), or null when there is no such setting. */
    default String setting(String name) {
        for (Setting s : settings()) {
            if (s.name().equals(name)) {
                return s.value();
            }
        }
        return null;
    }

    /**
     * The last value the sequence of column {@code column} (its index among the table's columns,
     * hidden ones included) of table {@code tableId} has handed out, 0 when it has handed out none, or
     * {@code -n} when {@code setval(s, n, false)} made n the next value.
     */
    long sequenceValue(int tableId, int column);

    /** One setting as {@code pg_settings} shows it. */
    record Setting(String name, String value, String defaultValue, String description) {}
}
