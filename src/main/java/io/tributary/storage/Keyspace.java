package io.tributary.storage;

/**
 * The separate key spaces of the state store. Both commit in the same atomic epoch write, so the
 * catalog and the data it describes never disagree after a crash.
 */
public enum Keyspace {
    /** Rows of tables and state tables: {@code [table id][vnode][memcomparable pk]}. */
    DATA,
    /** Catalog records and store metadata (committed epoch). */
    CATALOG
}
