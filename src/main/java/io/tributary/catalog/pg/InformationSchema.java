package io.tributary.catalog.pg;

import io.tributary.catalog.Catalog;
import io.tributary.common.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Schema {@code information_schema}, derived from {@link PgCatalog#relations()} at every scan.
 * As in PostgreSQL, materialized views appear in none of its tables (the SQL standard has no
 * such object), and NOT NULL columns appear as CHECK constraints named
 * {@code <namespace oid>_<relation oid>_<attnum>_not_null}.
 */
final class InformationSchema {
    static final String SCHEMA = "information_schema";

    private final PgCatalog pg;
    private final List<PgTable> tables = new ArrayList<>();

    InformationSchema(PgCatalog pg) {
        this.pg = pg;
        table(
                "schemata",
                13001,
                "catalog_name name, schema_name name, schema_owner name, "
                        + "default_character_set_catalog name, default_character_set_schema name, "
                        + "default_character_set_name name, sql_path text",
                this::schemata);
        table(
                "tables",
                13002,
                "table_catalog name, table_schema name, table_name name, table_type text, "
                        + "self_referencing_column_name name, reference_generation text, user_defined_type_catalog name, "
                        + "user_defined_type_schema name, user_defined_type_name name, is_insertable_into text, "
                        + "is_typed text, commit_action text",
                this::tableRows);
        table(
                "columns",
                13003,
                "table_catalog name, table_schema name, table_name name, column_name name, "
                        + "ordinal_position int4, column_default text, is_nullable text, data_type text, "
                        + "character_maximum_length int4, character_octet_length int4, numeric_precision int4, "
                        + "numeric_precision_radix int4, numeric_scale int4, datetime_precision int4, interval_type text, "
                        + "interval_precision int4, udt_catalog name, udt_schema name, udt_name name, dtd_identifier name, "
                        + "is_identity text, is_generated text, is_updatable text",
                this::columns);
        table(
                "views",
                13004,
                "table_catalog name, table_schema name, table_name name, view_definition text, "
                        + "check_option text, is_updatable text, is_insertable_into text, is_trigger_updatable text, "
                        + "is_trigger_deletable text, is_trigger_insertable_into text",
                this::views);
        table(
                "table_constraints",
                13005,
                "constraint_catalog name, constraint_schema name, constraint_name name, "
                        + "table_catalog name, table_schema name, table_name name, constraint_type text, "
                        + "is_deferrable text, initially_deferred text, enforced text, nulls_distinct text",
                this::tableConstraints);
        table(
                "check_constraints",
                13007,
                "constraint_catalog name, constraint_schema name, constraint_name name, check_clause text",
                this::checkConstraints);
        table(
                "key_column_usage",
                13006,
                "constraint_catalog name, constraint_schema name, constraint_name name, "
                        + "table_catalog name, table_schema name, table_name name, column_name name, ordinal_position int4, "
                        + "position_in_unique_constraint int4",
                this::keyColumnUsage);
        table(
                "referential_constraints",
                13008,
                "constraint_catalog name, constraint_schema name, constraint_name name, "
                        + "unique_constraint_catalog name, unique_constraint_schema name, unique_constraint_name name, "
                        + "match_option text, update_rule text, delete_rule text",
                this::referentialConstraints);
    }

    List<PgTable> tables() {
        return List.copyOf(tables);
    }

    private void table(String name, long oid, String columns, Supplier<List<Object[]>> rows) {
        tables.add(new PgTable(SCHEMA, name, oid, "v", PgColumn.parse(columns), rows));
    }

    /** The relations information_schema describes: tables and views, not materialized views or sequences. */
    private List<PgRelation> relations() {
        return pg.relations().stream()
                .filter(r -> r.relkind().equals("r") || r.relkind().equals("v"))
                .toList();
    }

    private List<Object[]> schemata() {
        List<Object[]> rows = new ArrayList<>();
        for (String s : List.of(Catalog.SCHEMA, PgCatalog.SCHEMA, SCHEMA, io.tributary.catalog.SystemTables.SCHEMA)) {
            rows.add(new Object[] {pg.database(), s, pg.owner(), null, null, null, null});
        }
        for (io.tributary.catalog.SchemaDef s : pg.catalog().schemas()) {
            rows.add(new Object[] {pg.database(), s.name(), pg.owner(), null, null, null, null});
        }
        return rows;
    }

    private List<Object[]> tableRows() {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            boolean table = r.relkind().equals("r");
            rows.add(new Object[] {
                pg.database(),
                r.schema(),
                r.name(),
                table ? "BASE TABLE" : "VIEW",
                null,
                null,
                null,
                null,
                null,
                table ? "YES" : "NO",
                "NO",
                null
            });
        }
        return rows;
    }

    private List<Object[]> columns() {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            for (int i = 0; i < r.attributes().size(); i++) {
                PgRelation.Attribute a = r.attributes().get(i);
                rows.add(columnRow(r, a, i + 1));
            }
        }
        return rows;
    }

    private Object[] columnRow(PgRelation r, PgRelation.Attribute a, int position) {
        TypeKind kind = TypeKind.ofOid((int) a.typeOid());
        String arrayUdt = PgTypes.arrayNameOf(a.typeOid());
        String udt = arrayUdt != null ? arrayUdt : PgTypes.nameOf(a.typeOid());
        String dataType = kind != null
                ? kind.pgName()
                : udt == null || arrayUdt != null
                        ? "ARRAY"
                        : udt.equals("name")
                                        || udt.equals("oid")
                                        || udt.equals("char")
                                        || udt.equals("regproc")
                                        || udt.equals("xid")
                                        || udt.equals("pg_node_tree")
                                ? udt
                                : "USER-DEFINED";
        if ("char".equals(udt)) {
            dataType = "\"char\"";
        }
        boolean characters = kind == TypeKind.TEXT || kind == TypeKind.VARCHAR || kind == TypeKind.BPCHAR;
        Integer maxLength =
                (kind == TypeKind.VARCHAR || kind == TypeKind.BPCHAR) && a.typmod() >= 4 ? a.typmod() - 4 : null;
        Integer octetLength = characters ? (maxLength != null ? maxLength * 4 : 1073741824) : null;
        Integer precision = null;
        Integer radix = null;
        Integer scale = null;
        if (kind != null) {
            switch (kind) {
                case SMALLINT -> {
                    precision = 16;
                    radix = 2;
                    scale = 0;
                }
                case INTEGER -> {
                    precision = 32;
                    radix = 2;
                    scale = 0;
                }
                case BIGINT -> {
                    precision = 64;
                    radix = 2;
                    scale = 0;
                }
                case REAL -> {
                    precision = 24;
                    radix = 2;
                }
                case DOUBLE -> {
                    precision = 53;
                    radix = 2;
                }
                case NUMERIC -> {
                    radix = 10;
                    if (a.typmod() >= 4) {
                        precision = (a.typmod() - 4) >> 16;
                        scale = (a.typmod() - 4) & 0xffff;
                    }
                }
                default -> {}
            }
        }
        Integer datetimePrecision = kind == TypeKind.DATE
                ? Integer.valueOf(0)
                : kind == TypeKind.TIME
                                || kind == TypeKind.TIMESTAMP
                                || kind == TypeKind.TIMESTAMPTZ
                                || kind == TypeKind.INTERVAL
                        // the declared precision (timestamp(3)), else PostgreSQL's default 6
                        ? Integer.valueOf(kind != TypeKind.INTERVAL && a.typmod() >= 0 ? a.typmod() : 6)
                        : null;
        return new Object[] {
            pg.database(),
            r.schema(),
            r.name(),
            a.name(),
            position,
            a.defaultText() == null ? null : pg.qualifiedDefault(r, a.defaultText()),
            a.notNull() ? "NO" : "YES",
            dataType,
            maxLength,
            octetLength,
            precision,
            radix,
            scale,
            datetimePrecision,
            null,
            null,
            pg.database(),
            PgCatalog.SCHEMA,
            udt,
            String.valueOf(position),
            "NO",
            "NEVER",
            r.relkind().equals("r") ? "YES" : "NO"
        };
    }

    private List<Object[]> views() {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            if (r.relkind().equals("v")) {
                rows.add(new Object[] {
                    pg.database(), r.schema(), r.name(), pg.viewDef(r), "NONE", "NO", "NO", "NO", "NO", "NO"
                });
            }
        }
        return rows;
    }

    private List<Object[]> tableConstraints() {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            for (PgRelation.Index index : r.indexes()) {
                if (index.hasConstraint()) {
                    rows.add(constraintRow(r, index.name(), index.primary() ? "PRIMARY KEY" : "UNIQUE", "YES"));
                }
            }
            for (int i = 0; i < r.attributes().size(); i++) {
                if (r.attributes().get(i).notNull()) {
                    String name = r.namespace() + "_" + r.oid() + "_" + (i + 1) + "_not_null";
                    rows.add(constraintRow(r, name, "CHECK", null));
                }
            }
            for (io.tributary.catalog.CheckDef c : r.checks()) {
                rows.add(constraintRow(r, c.name(), "CHECK", null));
            }
            for (PgForeignKey fk : r.foreignKeys()) {
                rows.add(constraintRow(r, fk.name(), "FOREIGN KEY", null));
            }
        }
        return rows;
    }

    /** One row per FOREIGN KEY constraint, naming the referenced key's constraint. */
    private List<Object[]> referentialConstraints() {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            for (PgForeignKey fk : r.foreignKeys()) {
                PgRelation.Index key = referencedKey(fk);
                rows.add(new Object[] {
                    pg.database(),
                    r.schema(),
                    fk.name(),
                    pg.database(),
                    key == null ? null : fk.parentSchema(),
                    key == null ? null : key.name(),
                    "NONE",
                    io.tributary.catalog.ForeignKeyDef.actionText(fk.onUpdate()),
                    io.tributary.catalog.ForeignKeyDef.actionText(fk.onDelete())
                });
            }
        }
        return rows;
    }

    /** The referenced table's primary key or UNIQUE constraint whose columns a foreign key references, or null. */
    private PgRelation.Index referencedKey(PgForeignKey fk) {
        for (PgRelation p : pg.relations()) {
            if (p.oid() != fk.parentOid()) {
                continue;
            }
            for (PgRelation.Index index : p.indexes()) {
                if (!index.hasConstraint() || index.key().length != fk.confkey().size()) {
                    continue;
                }
                java.util.Set<Short> key = new java.util.HashSet<>();
                for (short k : index.key()) {
                    key.add(k);
                }
                if (key.equals(new java.util.HashSet<>(fk.confkey()))) {
                    return index;
                }
            }
        }
        return null;
    }

    /**
     * The CHECK constraints' clauses, and PostgreSQL's {@code <namespace>_<table>_<attnum>_not_null}
     * rows for NOT NULL columns ({@code "v IS NOT NULL"}), as for table_constraints.
     */
    private List<Object[]> checkConstraints() {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            for (int i = 0; i < r.attributes().size(); i++) {
                if (r.attributes().get(i).notNull()) {
                    String name = r.namespace() + "_" + r.oid() + "_" + (i + 1) + "_not_null";
                    rows.add(new Object[] {
                        pg.database(),
                        r.schema(),
                        name,
                        PgDefinitions.quoteIdent(r.attributes().get(i).name()) + " IS NOT NULL"
                    });
                }
            }
            rows.addAll(PgCheckRows.checkClauses(pg.database(), r));
        }
        return rows;
    }

    private Object[] constraintRow(PgRelation r, String name, String type, String nullsDistinct) {
        return new Object[] {
            pg.database(), r.schema(), name, pg.database(), r.schema(), r.name(), type, "NO", "NO", "YES", nullsDistinct
        };
    }

    private List<Object[]> keyColumnUsage() {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            for (PgRelation.Index index : r.indexes()) {
                if (index.hasConstraint()) {
                    keyColumnRows(r, index, rows);
                }
            }
            for (PgForeignKey fk : r.foreignKeys()) {
                PgRelation.Index key = referencedKey(fk);
                for (int i = 0; i < fk.conkey().size(); i++) {
                    Integer position = null;
                    for (int k = 0; key != null && k < key.key().length; k++) {
                        if (key.key()[k] == fk.confkey().get(i)) {
                            position = k + 1;
                        }
                    }
                    rows.add(new Object[] {
                        pg.database(),
                        r.schema(),
                        fk.name(),
                        pg.database(),
                        r.schema(),
                        r.name(),
                        r.attributes().get(fk.conkey().get(i) - 1).name(),
                        i + 1,
                        position
                    });
                }
            }
        }
        return rows;
    }

    /** A key constraint's columns, one row each in key order. */
    private void keyColumnRows(PgRelation r, PgRelation.Index index, List<Object[]> rows) {
        short[] key = index.key();
        for (int i = 0; i < key.length; i++) {
            rows.add(new Object[] {
                pg.database(),
                r.schema(),
                index.name(),
                pg.database(),
                r.schema(),
                r.name(),
                r.attributes().get(key[i] - 1).name(),
                i + 1,
                null
            });
        }
    }
}
