package io.tributary.catalog.pg;

/** One {@code pg_class} row, in {@link PgCatalog}'s column order; stateless. */
final class PgClassRows {
    private PgClassRows() {}

    /**
     * @param hasIndex {@code relhasindex}
     * @param attributes {@code relnatts}
     * @param checks {@code relchecks}, which psql reads to decide whether to list check constraints
     * @param hasTriggers {@code relhastriggers}: a table with foreign keys, held or referenced
     * @param populated {@code relispopulated}
     */
    static Object[] row(
            long oid,
            String name,
            long namespace,
            long am,
            boolean hasIndex,
            String relkind,
            int attributes,
            int checks,
            boolean hasTriggers,
            boolean populated) {
        return new Object[] {
            oid,
            name,
            namespace,
            0L,
            0L,
            PgOids.SUPERUSER,
            am,
            0L,
            0L,
            0,
            -1f,
            0,
            0L,
            hasIndex,
            false,
            "p",
            relkind,
            (short) attributes,
            (short) checks,
            false,
            hasTriggers,
            false,
            false,
            false,
            populated,
            "d",
            false,
            0L,
            0L,
            0L,
            null,
            null,
            null
        };
    }
}
