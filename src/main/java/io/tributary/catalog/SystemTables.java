package io.tributary.catalog;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The system tables of one database instance, shown to SQL as schema {@link #SCHEMA}. Parts of
 * the engine register their tables when they start and unregister them when they stop; sessions
 * look them up while planning. Thread-safe.
 */
public final class SystemTables {
    /** The schema system tables appear in; it holds no user tables. */
    public static final String SCHEMA = "tributary_catalog";

    private final Map<String, SystemTable> tables = new ConcurrentSkipListMap<>();
    private final AtomicLong version = new AtomicLong();

    /**
     * Adds {@code table} under its name.
     *
     * @throws IllegalArgumentException if a table of that name is registered (two parts of the
     *         engine claiming one name is a programming error)
     */
    public void register(SystemTable table) {
        if (tables.putIfAbsent(table.name(), table) != null) {
            throw new IllegalArgumentException(
                    "system table " + SCHEMA + "." + table.name() + " is already registered");
        }
        version.incrementAndGet();
    }

    /** Removes the named table; false if none was registered. */
    public boolean unregister(String name) {
        boolean removed = tables.remove(name) != null;
        if (removed) {
            version.incrementAndGet();
        }
        return removed;
    }

    /** The registered tables in name order. */
    public List<SystemTable> tables() {
        return List.copyOf(tables.values());
    }

    public Optional<SystemTable> table(String name) {
        return Optional.ofNullable(tables.get(name));
    }

    /** The table, or the 42P01 error PostgreSQL gives for a missing schema-qualified relation. */
    public SystemTable require(String name) {
        return table(name).orElseThrow(() -> Catalog.undefinedTable(SCHEMA + "." + name));
    }

    /** Grows with every register and unregister, so plans made against older tables can be recognized. */
    public long version() {
        return version.get();
    }

    /**
     * The 42809 error for INSERT, UPDATE, DELETE or COPY into a system table, the SQLSTATE
     * PostgreSQL uses for writing to a relation that cannot take writes (a view, a sequence).
     */
    public static TributaryException cannotChange(String name) {
        return new TributaryException(
                SqlState.WRONG_OBJECT_TYPE, "cannot change system table \"" + SCHEMA + "." + name + "\"");
    }
}
