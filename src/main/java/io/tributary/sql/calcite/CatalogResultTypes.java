package io.tributary.sql.calcite;

import io.tributary.catalog.pg.PgColumn;
import io.tributary.catalog.pg.PgTable;
import java.util.List;
import java.util.function.Supplier;

/**
 * The type OID a result column read straight from a {@code pg_catalog} relation's column is
 * described with, when PostgreSQL's type of that column is one Tributary holds as another with the
 * same text form: {@code "char"} (18; {@code pg_class.relkind}, which clients then see as {@code
 * "char"}, not text) and {@code name} (19), held as text with the same binary form too, and {@code
 * oid} (26), held as bigint (an oid is unsigned 32-bit), whose binary form is four bytes (so in
 * binary it is described as the bigint it sends, {@code ColumnDesc.describedOid}). One per session's
 * frontend; reads the relations' definitions when a statement is prepared.
 */
final class CatalogResultTypes {
    private static final int CHAR_OID = 18;
    private static final int NAME_OID = 19;
    private static final int OID_OID = 26;

    private final Supplier<List<PgTable>> relations;

    /** @param relations the {@code pg_catalog} relations, as the session's Calcite schema lists them */
    CatalogResultTypes(Supplier<List<PgTable>> relations) {
        this.relations = relations;
    }

    /**
     * The OID to describe the column with, or 0 to keep its Tributary type's.
     *
     * @param schema the schema Calcite traces the column to: {@code pg_catalog}, or empty for the
     *     root, where the catalog relations are found too (user relations are in other schemas)
     * @param table the relation Calcite traces the column to
     * @param column the relation's column
     */
    int oid(String schema, String table, String column) {
        if (table == null || column == null || !(schema == null || schema.isEmpty() || schema.equals("pg_catalog"))) {
            return 0;
        }
        for (PgTable relation : relations.get()) {
            if (relation.name().equals(table)) {
                for (PgColumn c : relation.columns()) {
                    if (c.name().equals(column)) {
                        return switch (c.pgType()) {
                            case "char" -> CHAR_OID;
                            case "name" -> NAME_OID;
                            case "oid" -> OID_OID;
                            default -> 0;
                        };
                    }
                }
            }
        }
        return 0;
    }
}
