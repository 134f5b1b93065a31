package io.tributary.catalog.pg;

import java.util.List;
import java.util.function.Supplier;

/**
 * A relation of {@code pg_catalog} or {@code information_schema}: its columns and a source of
 * rows computed from the live catalog at every call (never cached, so never stale). Rows hold
 * one value per column as {@link PgColumn} describes, null for SQL NULL.
 */
public record PgTable(
        String schema, String name, long oid, String relkind, List<PgColumn> columns, Supplier<List<Object[]>> rows) {}
