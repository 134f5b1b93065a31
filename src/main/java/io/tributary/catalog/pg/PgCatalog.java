package io.tributary.catalog.pg;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SchemaDef;
import io.tributary.catalog.SystemTables;
import io.tributary.common.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Schema {@code pg_catalog} as PostgreSQL clients (psql, JDBC drivers, GUI tools) read it, derived
 * from the live {@link Catalog} at every scan. It lists the relations of schema {@code public}
 * (tables as relkind {@code r}, materialized views as {@code m}, declared primary keys as a
 * unique btree index and a {@code p} constraint) and its own relations and those of
 * {@code information_schema}. Catalogs of things Tributary does not have (defaults, comments,
 * policies, publications, inheritance, extended statistics) exist and are empty. One per session.
 */
public final class PgCatalog {
    public static final String SCHEMA = "pg_catalog";

    private final Catalog catalog;
    private final PgSession session;
    private final Supplier<List<String>> functions;
    private final List<PgTable> tables = new ArrayList<>();
    private final InformationSchema informationSchema;
    private final PgRelations relations;
    private final PgSequenceCatalogs sequenceCatalogs;
    private final PgDependencies dependencies;

    /**
     * @param functions the names of the functions SQL can call, for {@code pg_proc}
     */
    /**
     * The sequence of a SERIAL or identity column named {@code name} in {@code schema} (in any
     * schema when null), as {@code nextval} names it, or null when there is none. Any thread.
     */
    public static PgSequence sequence(Catalog catalog, String schema, String name) {
        return new PgRelations(catalog, List::of).sequence(schema, name);
    }

    public PgCatalog(Catalog catalog, PgSession session, Supplier<List<String>> functions) {
        this.catalog = catalog;
        this.session = session;
        this.functions = functions;
        define();
        tables.addAll(PgFixedCatalogs.tables());
        tables.add(PgActivity.table(SCHEMA, session));
        this.informationSchema = new InformationSchema(this);
        this.relations = new PgRelations(catalog, this::allSystemTables);
        this.sequenceCatalogs = new PgSequenceCatalogs(relations, session);
        this.dependencies = new PgDependencies(catalog, relations);
    }

    /** The relations of {@code pg_catalog}. */
    public List<PgTable> tables() {
        return List.copyOf(tables);
    }

    /**
     * The sequences behind SERIAL and identity columns as relations of schema {@code schema};
     * see {@link PgSequenceCatalogs#relations}.
     */
    public List<PgTable> sequenceRelations(String schema) {
        return sequenceCatalogs.relations(schema);
    }

    /** The relations of {@code information_schema}. */
    public List<PgTable> informationSchemaTables() {
        return informationSchema.tables();
    }

    /** The user the catalog's objects belong to. */
    String owner() {
        return session.user();
    }

    /**
     * Every relation {@code pg_class} lists, in OID order: those of {@code pg_catalog} and
     * {@code information_schema}, then the catalog's tables, sequences and views.
     */
    public List<PgRelation> relations() {
        return relations.all();
    }

    /**
     * What {@code pg_get_viewdef} returns for view or materialized view {@code r}: its query as
     * written, with the names of relations qualified by their schema when the session's
     * {@code search_path} does not reach it, as PostgreSQL does (pg_dump clears the path).
     */
    String viewDef(PgRelation r) {
        if (r.definition() == null || searchPathReaches(r.schema())) {
            return PgDefinitions.viewDef(r);
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (PgRelation other : relations()) {
            if (other.schema().equals(r.schema())) {
                names.add(other.name());
            }
        }
        String query = ViewTextQualifier.qualify(r.definition(), PgDefinitions.quoteIdent(r.schema()), names::contains);
        return PgDefinitions.viewDef(r.withDefinition(query));
    }

    /** Whether schema {@code schema} is named in the session's {@code search_path}. */
    private boolean searchPathReaches(String schema) {
        String path = session.setting("search_path");
        if (path == null) {
            return true;
        }
        for (String element : path.split(",")) {
            String name = element.strip();
            if (name.startsWith("\"")) {
                name = name.substring(1, name.length() - 1).replace("\"\"", "\"");
            }
            if (name.equals(schema)) {
                return true;
            }
        }
        return false;
    }

    private List<PgTable> allSystemTables() {
        List<PgTable> all = new ArrayList<>(tables);
        all.addAll(informationSchema.tables());
        return all;
    }

    private void table(String name, long oid, String relkind, String columns, Supplier<List<Object[]>> rows) {
        tables.add(new PgTable(SCHEMA, name, oid, relkind, PgColumn.parse(columns), rows));
    }

    private void define() {
        table("pg_namespace", 2615, "r", "oid oid, nspname name, nspowner oid, nspacl aclitem[]", this::namespaces);
        table(
                "pg_description",
                2609,
                "r",
                "objoid oid, classoid oid, objsubid int4, description text",
                () -> PgDescriptions.rows(catalog));
        table(
                "pg_class",
                1259,
                "r",
                "oid oid, relname name, relnamespace oid, reltype oid, reloftype oid, "
                        + "relowner oid, relam oid, relfilenode oid, reltablespace oid, relpages int4, reltuples float4, "
                        + "relallvisible int4, reltoastrelid oid, relhasindex bool, relisshared bool, relpersistence char, "
                        + "relkind char, relnatts int2, relchecks int2, relhasrules bool, relhastriggers bool, "
                        + "relhassubclass bool, relrowsecurity bool, relforcerowsecurity bool, relispopulated bool, "
                        + "relreplident char, relispartition bool, relrewrite oid, relfrozenxid xid, relminmxid xid, "
                        + "relacl aclitem[], reloptions text[], relpartbound pg_node_tree",
                this::classes);
        table(
                "pg_attribute",
                1249,
                "r",
                "attrelid oid, attname name, atttypid oid, attstattarget int4, "
                        + "attlen int2, attnum int2, attndims int4, attcacheoff int4, atttypmod int4, attbyval bool, "
                        + "attalign char, attstorage char, attcompression char, attnotnull bool, atthasdef bool, "
                        + "atthasmissing bool, attidentity char, attgenerated char, attisdropped bool, attislocal bool, "
                        + "attinhcount int4, attcollation oid, attacl aclitem[], attoptions text[], attfdwoptions text[], "
                        + "attmissingval text",
                this::attributes);
        table("pg_type", 1247, "r", PgTypes.COLUMNS, PgTypes::rows);
        table(
                "pg_index",
                2610,
                "r",
                "indexrelid oid, indrelid oid, indnatts int2, indnkeyatts int2, "
                        + "indisunique bool, indnullsnotdistinct bool, indisprimary bool, indisexclusion bool, indimmediate bool, "
                        + "indisclustered bool, indisvalid bool, indcheckxmin bool, indisready bool, indislive bool, "
                        + "indisreplident bool, indkey int2vector, indcollation oid[], indclass oid[], indoption int2[], "
                        + "indexprs pg_node_tree, indpred pg_node_tree",
                () -> PgKeyRows.indexes(relations()));
        table(
                "pg_constraint",
                2606,
                "r",
                "oid oid, conname name, connamespace oid, contype char, "
                        + "condeferrable bool, condeferred bool, convalidated bool, conrelid oid, contypid oid, "
                        + "conindid oid, conparentid oid, confrelid oid, confupdtype char, confdeltype char, "
                        + "confmatchtype char, conislocal bool, coninhcount int4, connoinherit bool, conkey int2[], "
                        + "confkey int2[], conbin pg_node_tree",
                () -> PgKeyRows.constraints(relations()));
        table("pg_attrdef", 2604, "r", "oid oid, adrelid oid, adnum int2, adbin pg_node_tree", this::attributeDefaults);
        table(
                "pg_database",
                1262,
                "r",
                "oid oid, datname name, datdba oid, encoding int4, datlocprovider char, "
                        + "datistemplate bool, datallowconn bool, datconnlimit int4, datfrozenxid xid, datminmxid xid, "
                        + "dattablespace oid, datcollate text, datctype text, daticulocale text, datcollversion text, "
                        + "datacl aclitem[]",
                this::databases);
        table(
                "pg_roles",
                12001,
                "v",
                "rolname name, rolsuper bool, rolinherit bool, rolcreaterole bool, "
                        + "rolcreatedb bool, rolcanlogin bool, rolreplication bool, rolconnlimit int4, rolpassword text, "
                        + "rolvaliduntil timestamptz, rolbypassrls bool, rolconfig text[], oid oid",
                this::roles);
        table(
                "pg_user",
                12002,
                "v",
                "usename name, usesysid oid, usecreatedb bool, usesuper bool, userepl bool, "
                        + "usebypassrls bool, passwd text, valuntil timestamptz, useconfig text[]",
                this::users);
        table(
                "pg_settings",
                12003,
                "v",
                "name text, setting text, unit text, category text, short_desc text, "
                        + "extra_desc text, context text, vartype text, source text, min_val text, max_val text, "
                        + "enumvals text[], boot_val text, reset_val text, sourcefile text, sourceline int4, "
                        + "pending_restart bool",
                this::settings);
        table(
                "pg_proc",
                1255,
                "r",
                "oid oid, proname name, pronamespace oid, proowner oid, prolang oid, "
                        + "prokind char, prosecdef bool, proretset bool, provolatile char, proparallel char, "
                        + "pronargs int2, prorettype oid, proargtypes oidvector, "
                        + "prosrc text, proacl aclitem[]",
                this::procedures);
        table("pg_am", 2601, "r", "oid oid, amname name, amhandler regproc, amtype char", this::accessMethods);
        table(
                "pg_tablespace",
                1213,
                "r",
                "oid oid, spcname name, spcowner oid, spcacl aclitem[], spcoptions text[]",
                () -> List.<Object[]>of(
                        new Object[] {PgOids.DEFAULT_TABLESPACE, "pg_default", PgOids.SUPERUSER, null, null}));
        table(
                "pg_collation",
                3456,
                "r",
                "oid oid, collname name, collnamespace oid, collowner oid, "
                        + "collprovider char, collisdeterministic bool, collencoding int4, collcollate text, collctype text",
                PgCatalog::collations);
        table(
                "pg_depend",
                2608,
                "r",
                "classid oid, objid oid, objsubid int4, refclassid oid, refobjid oid, refobjsubid int4, deptype char",
                () -> dependencies.rows());
        table(
                "pg_sequence",
                2224,
                "r",
                "seqrelid oid, seqtypid oid, seqstart int8, seqincrement int8, seqmax int8, seqmin int8, "
                        + "seqcache int8, seqcycle bool",
                () -> sequenceCatalogs.sequenceRows());
        table(
                "pg_sequences",
                12011,
                "v",
                "schemaname name, sequencename name, sequenceowner name, data_type regtype, start_value int8, "
                        + "min_value int8, max_value int8, increment_by int8, cycle bool, cache_size int8, "
                        + "last_value int8",
                () -> sequenceCatalogs.sequenceViewRows());
        table(
                "pg_tables",
                12004,
                "v",
                "schemaname name, tablename name, tableowner name, tablespace name, "
                        + "hasindexes bool, hasrules bool, hastriggers bool, rowsecurity bool",
                () -> relationRows("r"));
        table(
                "pg_views",
                12005,
                "v",
                "schemaname name, viewname name, viewowner name, definition text",
                () -> relationRows("v"));
        table(
                "pg_matviews",
                12006,
                "v",
                "schemaname name, matviewname name, matviewowner name, tablespace name, "
                        + "hasindexes bool, ispopulated bool, definition text",
                () -> relationRows("m"));
        table(
                "pg_indexes",
                12007,
                "v",
                "schemaname name, tablename name, indexname name, tablespace name, " + "indexdef text",
                this::indexViewRows);
    }

    /** The built-in schemas, then those made by CREATE SCHEMA, in name order. */
    private List<Object[]> namespaces() {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {PgOids.PG_CATALOG_NAMESPACE, SCHEMA, PgOids.SUPERUSER, null});
        rows.add(new Object[] {PgOids.PUBLIC_NAMESPACE, Catalog.SCHEMA, PgOids.SUPERUSER, null});
        rows.add(new Object[] {PgOids.INFORMATION_SCHEMA_NAMESPACE, InformationSchema.SCHEMA, PgOids.SUPERUSER, null});
        rows.add(new Object[] {PgOids.TRIBUTARY_CATALOG_NAMESPACE, SystemTables.SCHEMA, PgOids.SUPERUSER, null});
        for (SchemaDef s : catalog.schemas()) {
            rows.add(new Object[] {PgOids.namespace(catalog, s.name()), s.name(), PgOids.SUPERUSER, null});
        }
        return rows;
    }

    private List<Object[]> classes() {
        List<Object[]> rows = new ArrayList<>();
        List<PgRelation> all = relations();
        java.util.Set<Long> triggered = withForeignKeyTriggers(all);
        for (PgRelation r : all) {
            boolean stored = r.relkind().equals("r") || r.relkind().equals("m");
            rows.add(PgClassRows.row(
                    r.oid(),
                    r.name(),
                    r.namespace(),
                    stored ? PgOids.HEAP_AM : 0L,
                    !r.indexes().isEmpty(),
                    r.relkind(),
                    r.attributes().size(),
                    r.checks().size(),
                    triggered.contains(r.oid()),
                    populated(r)));
            for (PgRelation.Index index : r.indexes()) {
                rows.add(PgClassRows.row(
                        index.oid(),
                        index.name(),
                        r.namespace(),
                        PgOids.BTREE_AM,
                        false,
                        "i",
                        index.key().length,
                        0,
                        false,
                        true));
            }
        }
        return rows;
    }

    private List<Object[]> attributes() {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            List<PgRelation.Attribute> attrs = r.attributes();
            for (int i = 0; i < attrs.size(); i++) {
                rows.add(attributeRow(r.oid(), attrs.get(i), i + 1));
            }
            for (PgRelation.Index index : r.indexes()) {
                // an index numbers its attributes by position in the index, as PostgreSQL does
                short[] key = index.key();
                for (int i = 0; i < key.length; i++) {
                    rows.add(attributeRow(index.oid(), attrs.get(key[i] - 1), i + 1));
                }
            }
        }
        return rows;
    }

    private static Object[] attributeRow(long relation, PgRelation.Attribute a, int attnum) {
        TypeKind kind = TypeKind.ofOid((int) a.typeOid());
        String storage = kind == TypeKind.NUMERIC ? "m" : a.typeLength() < 0 ? "x" : "p";
        String align = a.typeLength() == 8 ? "d" : a.typeLength() == 2 ? "s" : a.typeLength() == 1 ? "c" : "i";
        boolean collatable = kind == TypeKind.TEXT || kind == TypeKind.VARCHAR || kind == TypeKind.BPCHAR;
        return new Object[] {
            relation,
            a.name(),
            a.typeOid(),
            -1,
            (short) a.typeLength(),
            (short) attnum,
            0,
            -1,
            a.typmod(),
            a.typeLength() > 0 && a.typeLength() <= 8,
            align,
            storage,
            "",
            a.notNull(),
            a.defaultText() != null,
            false,
            a.identity(),
            a.generated(),
            false,
            true,
            0,
            collatable ? PgOids.DEFAULT_COLLATION : 0L,
            null,
            null,
            null,
            null
        };
    }

    /**
     * One row per column default of a user relation; {@code adbin} holds the deparsed text, which
     * {@code pg_get_expr} returns as it is. The OID is {@link PgOids#attributeDefault}.
     */
    private List<Object[]> attributeDefaults() {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            List<PgRelation.Attribute> attrs = r.attributes();
            for (int i = 0; i < attrs.size(); i++) {
                if (attrs.get(i).defaultText() != null) {
                    rows.add(new Object[] {
                        PgOids.attributeDefault(r.oid(), i + 1),
                        r.oid(),
                        (short) (i + 1),
                        qualifiedDefault(r, attrs.get(i).defaultText())
                    });
                }
            }
        }
        return rows;
    }

    /**
     * A SERIAL column's {@code nextval('t_c_seq'::regclass)} names its sequence with the schema
     * when the session's {@code search_path} does not reach it, as PostgreSQL's regclass output does.
     */
    String qualifiedDefault(PgRelation r, String text) {
        String serial = "nextval('";
        if (!text.startsWith(serial) || searchPathReaches(r.schema())) {
            return text;
        }
        return serial + PgDefinitions.quoteIdent(r.schema()) + "." + text.substring(serial.length());
    }

    private List<Object[]> databases() {
        List<Object[]> rows = new ArrayList<>();
        for (io.tributary.catalog.DatabaseEntry d : catalog.databases()) {
            rows.add(new Object[] {
                PgOids.database(d.id()),
                d.name(),
                PgOids.SUPERUSER,
                6,
                "c",
                false,
                true,
                -1,
                0L,
                0L,
                PgOids.DEFAULT_TABLESPACE,
                "C",
                "C",
                null,
                null,
                null
            });
        }
        return rows;
    }

    /** The catalog these relations are derived from. */
    Catalog catalog() {
        return catalog;
    }

    /** The name of the database whose catalog this is. */
    String database() {
        return catalog.database();
    }

    private List<Object[]> roles() {
        return List.<Object[]>of(new Object[] {
            owner(), true, true, true, true, true, true, -1, "********", null, true, null, PgOids.SUPERUSER
        });
    }

    private List<Object[]> users() {
        return List.<Object[]>of(
                new Object[] {owner(), PgOids.SUPERUSER, true, true, true, true, "********", null, null});
    }

    private List<Object[]> settings() {
        List<Object[]> rows = new ArrayList<>();
        for (PgSession.Setting s : session.settings()) {
            String source = s.value().equals(s.defaultValue()) ? "default" : "session";
            rows.add(new Object[] {
                s.name(),
                s.value(),
                null,
                "Tributary",
                s.description(),
                null,
                "user",
                "string",
                source,
                null,
                null,
                null,
                s.defaultValue(),
                s.defaultValue(),
                null,
                null,
                false
            });
        }
        return rows;
    }

    /**
     * Numbered in name order from PostgreSQL's first OID for objects created after initdb's. Each
     * is marked as PostgreSQL marks a function created without options (security invoker,
     * volatile, parallel unsafe): Tributary does not record those properties of its functions.
     */
    private List<Object[]> procedures() {
        List<String> names = functions.get().stream().distinct().sorted().toList();
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            rows.add(new Object[] {
                13500L + i,
                names.get(i),
                PgOids.PG_CATALOG_NAMESPACE,
                PgOids.SUPERUSER,
                12L,
                "f",
                false,
                false,
                "v",
                "u",
                (short) 0,
                0L,
                "",
                names.get(i),
                null
            });
        }
        return rows;
    }

    private List<Object[]> accessMethods() {
        return List.of(
                new Object[] {PgOids.HEAP_AM, "heap", 3L, "t"}, new Object[] {PgOids.BTREE_AM, "btree", 330L, "i"});
    }

    private static List<Object[]> collations() {
        return List.of(
                new Object[] {
                    PgOids.DEFAULT_COLLATION,
                    "default",
                    PgOids.PG_CATALOG_NAMESPACE,
                    PgOids.SUPERUSER,
                    "d",
                    true,
                    -1,
                    null,
                    null
                },
                new Object[] {
                    PgOids.C_COLLATION, "C", PgOids.PG_CATALOG_NAMESPACE, PgOids.SUPERUSER, "c", true, -1, "C", "C"
                });
    }

    /**
     * The OIDs of the relations PostgreSQL would give foreign-key triggers ({@code relhastriggers}):
     * each table holding a foreign key and each table one references. pg_dump reads a table's
     * foreign keys only when it says so, and psql's {@code \d} then lists them.
     */
    private static java.util.Set<Long> withForeignKeyTriggers(List<PgRelation> relations) {
        java.util.Set<Long> out = new java.util.HashSet<>();
        for (PgRelation r : relations) {
            for (PgForeignKey fk : r.foreignKeys()) {
                out.add(r.oid());
                out.add(fk.parentOid());
            }
        }
        return out;
    }

    /**
     * {@code relispopulated}: false for a materialized view created {@code WITH NO DATA}
     * until REFRESH, so pg_dump dumps it without a REFRESH, as PostgreSQL's; true otherwise.
     */
    private boolean populated(PgRelation r) {
        int id = PgOids.relationId(r.oid());
        return !r.relkind().equals("m")
                || id < 0
                || catalog.unreadable(id).map(why -> !why.awaitsRefresh()).orElse(true);
    }

    /** The rows of pg_tables ({@code r}), pg_views ({@code v}) or pg_matviews ({@code m}). */
    private List<Object[]> relationRows(String relkind) {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            if (!r.relkind().equals(relkind)) {
                continue;
            }
            rows.add(
                    switch (relkind) {
                        case "r" ->
                            new Object[] {
                                r.schema(),
                                r.name(),
                                owner(),
                                null,
                                !r.indexes().isEmpty(),
                                false,
                                false,
                                false
                            };
                        case "v" -> new Object[] {r.schema(), r.name(), owner(), viewDef(r)};
                        default -> new Object[] {r.schema(), r.name(), owner(), null, false, populated(r), viewDef(r)};
                    });
        }
        return rows;
    }

    private List<Object[]> indexViewRows() {
        List<Object[]> rows = new ArrayList<>();
        for (PgRelation r : relations()) {
            for (PgRelation.Index index : r.indexes()) {
                rows.add(new Object[] {r.schema(), r.name(), index.name(), null, PgDefinitions.indexDef(r, index)});
            }
        }
        return rows;
    }

    /** The OID of relation {@code name} in schema {@code schema}, or -1 when there is none. */
    public long relationOid(String schema, String name) {
        return relations.oid(schema, name);
    }

    /**
     * A relation no client sees ({@code pg_get_indexdef} and its kin are planned as lookups in
     * it): per OID, the text {@code pg_get_indexdef} (kind {@code i}), {@code pg_get_constraintdef}
     * ({@code c}) or {@code pg_get_viewdef} ({@code v}) returns for it, and what it returns when
     * asked to pretty-print (differing for CHECK constraints only).
     */
    public PgTable definitions(String schema) {
        return new PgTable(
                schema,
                "definitions",
                0,
                "r",
                PgColumn.parse("defoid oid, kind char, definition text, pretty text"),
                () -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (PgRelation r : relations()) {
                        for (PgRelation.Index index : r.indexes()) {
                            String indexDef = PgDefinitions.indexDef(r, index);
                            rows.add(new Object[] {index.oid(), "i", indexDef, indexDef});
                            if (index.hasConstraint()) {
                                String key = PgDefinitions.constraintDef(r, index);
                                rows.add(new Object[] {index.constraintOid(), "c", key, key});
                            }
                        }
                        rows.addAll(PgCheckRows.definitions(r));
                        for (PgForeignKey fk : r.foreignKeys()) {
                            String def = fk.definition(!searchPathReaches(fk.parentSchema()));
                            rows.add(new Object[] {fk.oid(), "c", def, def});
                        }
                        if (r.definition() != null) {
                            String view = viewDef(r);
                            rows.add(new Object[] {r.oid(), "v", view, view});
                        }
                    }
                    return rows;
                });
    }

    /**
     * The relations {@code pg_relation_size}, {@code pg_table_size}, {@code pg_indexes_size},
     * {@code pg_total_relation_size} and {@code pg_database_size} are planned as lookups in, in
     * schema {@code schema}; see {@link PgSizes}.
     */
    public List<PgTable> sizes(String schema) {
        return List.of(
                PgSizes.relations(schema, catalog, session, this::relations),
                PgSizes.databases(schema, catalog, session));
    }
}
