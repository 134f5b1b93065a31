package io.tributary.catalog.pg;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.common.types.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The relation model behind {@code pg_class} and every catalog that refers to relations: the
 * relations of {@code pg_catalog} and {@code information_schema}, then the live {@link Catalog}'s
 * tables (relkind {@code r}), materialized views ({@code m}), plain views ({@code v}), the
 * sequences of their SERIAL and identity columns and those made by CREATE SEQUENCE ({@code S}). Recomputed at every call, so never
 * stale; called on the querying thread while a catalog relation is scanned.
 */
final class PgRelations {
    private final Catalog catalog;
    private final Supplier<List<PgTable>> systemTables;

    /** @param systemTables the relations of {@code pg_catalog} and {@code information_schema} */
    PgRelations(Catalog catalog, Supplier<List<PgTable>> systemTables) {
        this.catalog = catalog;
        this.systemTables = systemTables;
    }

    /** Every relation {@code pg_class} lists, system relations first, then user ones in OID order. */
    List<PgRelation> all() {
        List<PgRelation> out = new ArrayList<>();
        for (PgTable t : systemTables.get()) {
            List<PgRelation.Attribute> attrs = new ArrayList<>();
            for (PgColumn c : t.columns()) {
                attrs.add(new PgRelation.Attribute(c.name(), c.typeOid(), -1, length(c), false));
            }
            long ns = t.schema().equals(PgCatalog.SCHEMA)
                    ? PgOids.PG_CATALOG_NAMESPACE
                    : PgOids.INFORMATION_SCHEMA_NAMESPACE;
            out.add(new PgRelation(t.oid(), ns, t.schema(), t.name(), t.relkind(), attrs, new short[0], null));
        }
        for (TableDef t : userTables()) {
            out.add(relation(t));
        }
        java.util.Map<Long, String> schemaOf = schemasOfTables();
        for (PgSequence s : sequences()) {
            // a sequence lives in its table's schema
            String schema = schemaOf.getOrDefault(s.table(), Catalog.SCHEMA);
            out.add(new PgRelation(
                    s.oid(),
                    PgOids.namespace(catalog, schema),
                    schema,
                    s.name(),
                    "S",
                    SEQUENCE_ATTRIBUTES,
                    new short[0],
                    null));
        }
        for (io.tributary.catalog.SequenceDef q : catalog.sequences()) {
            out.add(new PgRelation(
                    PgOids.relation(q.id()),
                    PgOids.namespace(catalog, q.schema()),
                    q.schema(),
                    q.localName(),
                    "S",
                    SEQUENCE_ATTRIBUTES,
                    new short[0],
                    null));
        }
        for (ViewDef v : catalog.views()) {
            out.add(relation(v));
        }
        return out;
    }

    /** The columns PostgreSQL gives every sequence relation. */
    private static final List<PgRelation.Attribute> SEQUENCE_ATTRIBUTES = List.of(
            new PgRelation.Attribute("last_value", PgTypes.oidOf("int8"), -1, 8, true),
            new PgRelation.Attribute("log_cnt", PgTypes.oidOf("int8"), -1, 8, true),
            new PgRelation.Attribute("is_called", PgTypes.oidOf("bool"), -1, 1, true));

    /** The sequences of the identity and SERIAL columns of tables in {@code schema}. */
    List<PgSequence> sequencesIn(String schema) {
        java.util.Map<Long, String> schemaOf = schemasOfTables();
        List<PgSequence> out = new ArrayList<>();
        for (PgSequence s : sequences()) {
            if (schemaOf.getOrDefault(s.table(), Catalog.SCHEMA).equals(schema)) {
                out.add(s);
            }
        }
        return out;
    }

    /** The schema of each user table, by the table's OID. */
    java.util.Map<Long, String> schemasOfTables() {
        java.util.Map<Long, String> schemaOf = new java.util.HashMap<>();
        for (TableDef t : userTables()) {
            schemaOf.put(PgOids.relation(t.id()), t.schema());
        }
        return schemaOf;
    }

    /**
     * The sequences behind the SERIAL and identity columns of the catalog's tables, named as
     * PostgreSQL names them, {@code <table>_<column>_seq}.
     */
    List<PgSequence> sequences() {
        List<PgSequence> out = new ArrayList<>();
        for (TableDef t : userTables()) {
            long table = PgOids.relation(t.id());
            int attnum = 0;
            for (int i = 0; i < t.columns().size(); i++) {
                ColumnDef c = t.columns().get(i);
                if (c.hidden()) {
                    continue;
                }
                attnum++;
                if (c.identity() != null) {
                    out.add(new PgSequence(
                            PgOids.sequence(table, attnum),
                            t.localName() + "_" + c.name() + "_seq",
                            table,
                            attnum,
                            c.type().oid(),
                            c.identity() == ColumnDef.Identity.SERIAL ? "a" : "i",
                            t.id(),
                            i));
                }
            }
        }
        return out;
    }

    /** The sequences made by {@code CREATE SEQUENCE}. */
    List<io.tributary.catalog.SequenceDef> createdSequences() {
        return catalog.sequences();
    }

    /** The sequences made by {@code CREATE SEQUENCE} in {@code schema}. */
    List<PgSequence> createdSequencesIn(String schema) {
        List<PgSequence> out = new ArrayList<>();
        for (io.tributary.catalog.SequenceDef q : catalog.sequences()) {
            if (q.schema().equals(schema)) {
                out.add(created(q));
            }
        }
        return out;
    }

    /**
     * A sequence made by {@code CREATE SEQUENCE} as {@code pg_depend} links it: to the column
     * {@code OWNED BY} named (dependency {@code a}, as PostgreSQL records it), else to nothing
     * (table 0, dependency empty). Its position is kept under (its id, 0).
     */
    PgSequence created(io.tributary.catalog.SequenceDef q) {
        long table = 0;
        int attnum = 0;
        String owner = q.ownedBy();
        if (owner != null) {
            int dot = owner.lastIndexOf('.');
            java.util.Optional<TableDef> t = catalog.table(owner.substring(0, dot));
            if (t.isPresent()) {
                table = PgOids.relation(t.get().id());
                attnum = visibleAttnum(t.get(), owner.substring(dot + 1));
            }
        }
        return new PgSequence(
                PgOids.relation(q.id()),
                q.localName(),
                table,
                attnum,
                PgTypes.oidOf(typeName(q.type())),
                attnum > 0 ? "a" : "",
                q.id(),
                0,
                q.counting());
    }

    /** The {@code attnum} of column {@code name} of {@code t} (hidden columns not counted), 0 when none. */
    private static int visibleAttnum(TableDef t, String name) {
        int attnum = 0;
        for (ColumnDef c : t.columns()) {
            if (c.hidden()) {
                continue;
            }
            attnum++;
            if (c.name().equals(name)) {
                return attnum;
            }
        }
        return 0;
    }

    /**
     * The sequence {@code name} of schema {@code schema} (any schema when null), or null when there
     * is none.
     */
    PgSequence sequence(String schema, String name) {
        for (io.tributary.catalog.SequenceDef q : catalog.sequences()) {
            if ((schema == null || schema.equals(q.schema())) && q.localName().equals(name)) {
                return created(q);
            }
        }
        for (TableDef t : userTables()) {
            if (schema == null || schema.equals(t.schema())) {
                for (PgSequence s : sequences()) {
                    if (s.tableId() == t.id() && s.name().equals(name)) {
                        return s;
                    }
                }
            }
        }
        return null;
    }

    private static String typeName(String sqlType) {
        return switch (sqlType) {
            case "smallint" -> "int2";
            case "integer" -> "int4";
            default -> "int8";
        };
    }

    /**
     * The OID of relation {@code name} in schema {@code schema}, an index's among them (as {@code
     * 't_pkey'::regclass} finds it in PostgreSQL), or -1 when there is none.
     */
    long oid(String schema, String name) {
        for (PgRelation r : all()) {
            if (!r.schema().equals(schema)) {
                continue;
            }
            if (r.name().equals(name)) {
                return r.oid();
            }
            for (PgRelation.Index index : r.indexes()) {
                if (index.name().equals(name)) {
                    return index.oid();
                }
            }
        }
        return -1;
    }

    private List<TableDef> userTables() {
        return catalog.tables().stream().filter(t -> !t.isInternal()).toList();
    }

    private static int length(PgColumn c) {
        return c.array() || c.vector()
                ? -1
                : PgTypes.BASE.stream()
                        .filter(b -> b.name().equals(c.pgType()))
                        .mapToInt(PgTypes.Base::length)
                        .findFirst()
                        .orElse(-1);
    }

    /** {@code pg_type.typlen} of base type {@code oid} ({@code name}: 64); -1 when not a base type listed. */
    private static int baseLength(long oid) {
        return PgTypes.BASE.stream()
                .filter(b -> b.oid() == oid)
                .mapToInt(PgTypes.Base::length)
                .findFirst()
                .orElse(-1);
    }

    /**
     * A plain view as pg_class shows it (relkind {@code v}): its columns as planned at CREATE, a
     * column of {@code current_user} and its kin typed {@code name} ({@link ViewDef#columnOid}).
     */
    private PgRelation relation(ViewDef v) {
        List<PgRelation.Attribute> attrs = new ArrayList<>();
        for (int i = 0; i < v.columns().size(); i++) {
            ColumnDef c = v.columns().get(i);
            DataType type = c.type();
            long oid = v.columnOid(i);
            attrs.add(
                    oid == type.oid()
                            ? new PgRelation.Attribute(
                                    c.name(), oid, type.typmod(), type.kind().wireLength(), false)
                            : new PgRelation.Attribute(c.name(), oid, -1, baseLength(oid), false));
        }
        return new PgRelation(
                PgOids.view(v.name()),
                PgOids.namespace(catalog, v.schema()),
                v.schema(),
                v.localName(),
                "v",
                attrs,
                new short[0],
                v.query());
    }

    /** A catalog table or materialized view as pg_class shows it: visible columns only, numbered from 1. */
    private PgRelation relation(TableDef t) {
        List<PgRelation.Attribute> attrs = new ArrayList<>();
        int[] attnum = new int[t.columns().size()];
        for (int i = 0; i < t.columns().size(); i++) {
            ColumnDef c = t.columns().get(i);
            if (c.hidden()) {
                continue;
            }
            DataType type = c.type();
            String identity = c.identity() == ColumnDef.Identity.ALWAYS
                    ? "a"
                    : c.identity() == ColumnDef.Identity.BY_DEFAULT ? "d" : "";
            attrs.add(new PgRelation.Attribute(
                    c.name(),
                    type.oid(),
                    type.typmod(),
                    type.kind().wireLength(),
                    c.notNull(),
                    PgDefaults.text(t.localName(), c),
                    identity,
                    // a stored generated column, as PostgreSQL shows GENERATED ALWAYS AS (...) STORED
                    c.proctime() ? "s" : ""));
            attnum[i] = attrs.size();
        }
        short[] key = new short[0];
        if (!t.isView() && !t.hasRowId()) {
            key = new short[t.primaryKey().length];
            for (int i = 0; i < key.length; i++) {
                key[i] = (short) attnum[t.primaryKey()[i]];
            }
        }
        List<PgRelation.Index> indexes = new ArrayList<>();
        for (io.tributary.catalog.IndexDef index : t.indexes()) {
            short[] columns = new short[index.columns().size()];
            for (int i = 0; i < columns.length; i++) {
                columns[i] = (short) attnum[t.columnIndex(index.columns().get(i))];
            }
            // an index's entries have a storage id of their own, so its OIDs come from it as a
            // relation's do: the index takes the first, its constraint the third
            long oid = PgOids.relation(index.id());
            indexes.add(new PgRelation.Index(
                    index.name(), oid, oid + 2, columns, index.unique(), index.constraint() ? "u" : "", index.id()));
        }
        return new PgRelation(
                PgOids.relation(t.id()),
                PgOids.namespace(catalog, t.schema()),
                t.schema(),
                t.localName(),
                t.isView() ? "m" : "r",
                attrs,
                key,
                t.isView() ? t.query() : null,
                t.checks(),
                indexes,
                foreignKeys(t));
    }

    /** The table's FOREIGN KEY constraints, each with its referenced table's OID and attnums. */
    private List<PgForeignKey> foreignKeys(TableDef t) {
        List<PgForeignKey> out = new ArrayList<>(t.foreignKeys().size());
        long oid = PgOids.relation(t.id());
        for (int i = 0; i < t.foreignKeys().size(); i++) {
            io.tributary.catalog.ForeignKeyDef fk = t.foreignKeys().get(i);
            TableDef parent = catalog.table(fk.parent()).orElse(null);
            if (parent == null) {
                continue;
            }
            out.add(new PgForeignKey(
                    PgOids.foreignKeyConstraint(oid, i),
                    fk.name(),
                    PgOids.relation(parent.id()),
                    parent.schema(),
                    parent.localName(),
                    fk.columns(),
                    fk.parentColumns(),
                    fk.columns().stream().map(c -> attnum(t, c)).toList(),
                    fk.parentColumns().stream().map(c -> attnum(parent, c)).toList(),
                    fk.onUpdate(),
                    fk.onDelete()));
        }
        return out;
    }

    /** The attnum {@code pg_attribute} gives visible column {@code column} of {@code t}. */
    private static short attnum(TableDef t, String column) {
        short n = 0;
        for (ColumnDef c : t.columns()) {
            if (!c.hidden()) {
                n++;
            }
            if (c.name().equals(column)) {
                return n;
            }
        }
        return 0;
    }
}
