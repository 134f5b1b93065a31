package io.tributary.catalog.pg;

import io.tributary.catalog.SequenceOptions;

/**
 * The sequence behind a {@code SERIAL} or identity column, as {@code pg_class} (relkind {@code S}),
 * {@code pg_sequence} and {@code pg_depend} show it. Tributary numbers such a column 1, 2, ...
 * (see {@code io.tributary.meta.write.Sequences}); the sequence's bounds follow the column's type
 * as PostgreSQL's do.
 *
 * @param name PostgreSQL's name for it, {@code <table>_<column>_seq}
 * @param table the OID of the owning table
 * @param attnum the owning column's number
 * @param typeOid the owning column's type ({@code pg_sequence.seqtypid})
 * @param dependency {@code pg_depend.deptype} linking it to the column: {@code a} (owned, as by
 *     SERIAL) or {@code i} (an identity column's internal sequence)
 * @param tableId the owning table's catalog id
 * @param column the owning column's index among the table's columns (hidden ones included), as
 *     the sequence store keys it
 * @param options a sequence made by {@code CREATE SEQUENCE}: how it counts; null for a column's
 */
public record PgSequence(
        long oid,
        String name,
        long table,
        int attnum,
        long typeOid,
        String dependency,
        int tableId,
        int column,
        SequenceOptions options) {
    /** A column's sequence, which counts 1, 2, ... to its type's bound. */
    public PgSequence(
            long oid, String name, long table, int attnum, long typeOid, String dependency, int tableId, int column) {
        this(oid, name, table, attnum, typeOid, dependency, tableId, column, null);
    }

    /** How it counts: a created sequence's options, a column's 1, 2, ... to its type's bound. */
    public SequenceOptions counting() {
        return options != null
                ? options
                : SequenceOptions.defaults(
                        typeOid == PgTypes.oidOf("int2")
                                ? "smallint"
                                : typeOid == PgTypes.oidOf("int4") ? "integer" : "bigint");
    }

    /** Its upper bound: PostgreSQL's default for a column's sequence of {@link #typeOid}. */
    public long maxValue() {
        return counting().max();
    }
}
