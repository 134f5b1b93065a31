package io.tributary.catalog.pg;

import java.util.ArrayList;
import java.util.List;

/**
 * The rows {@code pg_index} and {@code pg_constraint} show for relations' keys: primary keys,
 * UNIQUE constraints and indexes, CHECK constraints and foreign keys. Stateless; called while a
 * catalog table is read, with the relations read once for the whole table.
 */
final class PgKeyRows {
    private PgKeyRows() {}

    /** The {@code pg_index} rows of {@code relations}' primary keys, UNIQUE constraints and indexes. */
    static List<Object[]> indexes(List<PgRelation> relations) {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations) {
            for (PgRelation.Index index : r.indexes()) {
                List<Short> key = shorts(index.key());
                List<Long> zeros = key.stream().map(k -> 0L).toList();
                rows.add(new Object[] {
                    index.oid(),
                    r.oid(),
                    (short) key.size(),
                    (short) key.size(),
                    index.unique(),
                    false,
                    index.primary(),
                    false,
                    true,
                    false,
                    true,
                    false,
                    true,
                    true,
                    false,
                    key,
                    zeros,
                    zeros,
                    key.stream().map(k -> (short) 0).toList(),
                    null,
                    null
                });
            }
        }
        return rows;
    }

    /**
     * The {@code pg_constraint} rows of {@code relations}: primary keys and UNIQUE constraints
     * ({@code p}, {@code u}), CHECK constraints ({@link PgCheckRows}) and foreign keys ({@code f}).
     */
    static List<Object[]> constraints(List<PgRelation> relations) {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations) {
            for (PgRelation.Index index : r.indexes()) {
                if (!index.hasConstraint()) {
                    continue;
                }
                rows.add(new Object[] {
                    index.constraintOid(),
                    index.name(),
                    r.namespace(),
                    index.constraintType(),
                    false,
                    false,
                    true,
                    r.oid(),
                    0L,
                    index.oid(),
                    0L,
                    0L,
                    " ",
                    " ",
                    " ",
                    true,
                    0,
                    true,
                    shorts(index.key()),
                    null,
                    null
                });
            }
            rows.addAll(PgCheckRows.constraints(r));
            for (PgForeignKey fk : r.foreignKeys()) {
                rows.add(new Object[] {
                    fk.oid(),
                    fk.name(),
                    r.namespace(),
                    "f",
                    false,
                    false,
                    true,
                    r.oid(),
                    0L,
                    referencedIndexOid(relations, fk),
                    0L,
                    fk.parentOid(),
                    String.valueOf(fk.onUpdate()),
                    String.valueOf(fk.onDelete()),
                    "s",
                    true,
                    0,
                    true,
                    fk.conkey(),
                    fk.confkey(),
                    null
                });
            }
        }
        return rows;
    }

    /** {@code conindid} of a foreign key: the referenced table's index its columns are (0 when it is gone). */
    private static long referencedIndexOid(List<PgRelation> relations, PgForeignKey fk) {
        for (PgRelation p : relations) {
            if (p.oid() != fk.parentOid()) {
                continue;
            }
            for (PgRelation.Index index : p.indexes()) {
                if (index.unique() && index.key().length == fk.confkey().size()) {
                    java.util.Set<Short> key = new java.util.HashSet<>();
                    for (short k : index.key()) {
                        key.add(k);
                    }
                    if (key.equals(new java.util.HashSet<>(fk.confkey()))) {
                        return index.oid();
                    }
                }
            }
        }
        return 0L;
    }

    private static List<Short> shorts(short[] a) {
        List<Short> out = new ArrayList<>(a.length);
        for (short s : a) {
            out.add(s);
        }
        return out;
    }
}
