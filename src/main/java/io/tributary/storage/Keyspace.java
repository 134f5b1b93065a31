package io.tributary.storage;

/**
 * The separate key spaces of the state store. All commit in the same atomic epoch write, so the
 * catalog, the data it describes and the change logs of that data never disagree after a crash.
 */
public enum Keyspace {
    /** Rows of tables and state tables: {@code [table id][vnode][memcomparable pk]}. */
    DATA,
    /** Catalog records and store metadata (committed epoch). */
    CATALOG,
    /**
     * Per-epoch change logs of relations with log consumers, laid out by {@link ChangeLogKeys}. A
     * keyspace of their own, so a log key can never be mistaken for a row of {@link #DATA}, and a
     * scan of a table never walks over its log.
     */
    CHANGELOG
}
