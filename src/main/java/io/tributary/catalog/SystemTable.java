package io.tributary.catalog;

import java.util.List;

/**
 * A read-only table of engine state, queried as {@code tributary_catalog.<name>} through the
 * ordinary SELECT path (filters, ordering and joins are applied by the query engine). Registered
 * in the database's {@link SystemTables}.
 *
 * <p>{@link #rows()} is called on the querying session's thread, once per scan, concurrently with
 * the engine changing the state it shows: implementations must be thread-safe and cheap (a copy
 * of in-memory state, no storage scans, no waiting for epochs).
 */
public interface SystemTable {
    /** The name under {@code tributary_catalog}: lower case, fixed for the table's life. */
    String name();

    /** The columns, fixed for the table's life; every row has one value per column. */
    List<ColumnDef> columns();

    /**
     * A fresh snapshot of the rows, each with one canonical value per column (see
     * {@code common.types}), null for SQL NULL. The caller may keep and read the list after the
     * state changes; it never modifies it.
     */
    List<Object[]> rows();
}
