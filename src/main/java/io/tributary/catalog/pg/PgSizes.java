package io.tributary.catalog.pg;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.DatabaseEntry;
import io.tributary.catalog.TableDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The relations no client sees that {@code pg_relation_size} and its kin are planned as lookups
 * in: per relation OID, the bytes of its own rows ({@code main}), of its rows and auxiliary storage
 * ({@code tbl}: a materialized view's operator state, as PostgreSQL's TOAST and maps count in
 * {@code pg_table_size}) and of its indexes; per database, its bytes. Figures are RocksDB's
 * estimates, read at every scan. A primary key's index is the table's own key, so it has no
 * storage of its own (0); so do plain views, sequences and the catalogs, which are computed. A
 * secondary index's bytes are those of its own key range.
 */
final class PgSizes {
    private PgSizes() {}

    /** {@code relid, main, tbl, idx} for every relation {@code relations} lists and each of their indexes. */
    static PgTable relations(String schema, Catalog catalog, PgSession session, Supplier<List<PgRelation>> relations) {
        return new PgTable(
                schema, "relation_sizes", 0, "r", PgColumn.parse("relid oid, main int8, tbl int8, idx int8"), () -> {
                    Map<Long, TableDef> stored = new HashMap<>();
                    for (TableDef t : catalog.tables()) {
                        stored.put(PgOids.relation(t.id()), t);
                    }
                    List<Object[]> rows = new ArrayList<>();
                    for (PgRelation r : relations.get()) {
                        TableDef t = stored.get(r.oid());
                        long main = t == null ? 0 : session.relationBytes(t.id());
                        long auxiliary = 0;
                        if (t != null) {
                            for (int id : t.stateTableIds()) {
                                auxiliary += session.relationBytes(id);
                            }
                        }
                        long indexes = 0;
                        for (PgRelation.Index index : r.indexes()) {
                            // a primary key's entries are the table's rows, counted above
                            long bytes = index.storageId() < 0 ? 0 : session.relationBytes(index.storageId());
                            indexes += bytes;
                            rows.add(new Object[] {index.oid(), bytes, bytes, 0L});
                        }
                        rows.add(new Object[] {r.oid(), main, main + auxiliary, indexes});
                    }
                    return rows;
                });
    }

    /** {@code datoid, datname, bytes} for every database of the cluster {@code catalog} belongs to. */
    static PgTable databases(String schema, Catalog catalog, PgSession session) {
        return new PgTable(
                schema, "database_sizes", 0, "r", PgColumn.parse("datoid oid, datname text, bytes int8"), () -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (DatabaseEntry d : catalog.databases()) {
                        long bytes = session.databaseBytes(d.name());
                        if (bytes >= 0) {
                            rows.add(new Object[] {PgOids.database(d.id()), d.name(), bytes});
                        }
                    }
                    return rows;
                });
    }
}
