package io.tributary.catalog.pg;

/**
 * How catalog objects get their OIDs. OIDs are a pure function of what they name, so they are
 * stable across statements, sessions and restarts without being stored: a relation's OID is
 * derived from its storage id (never reused), its primary key index and constraint take the
 * next two ({@link PgRelation#indexOid()}, {@link PgRelation#constraintOid()}), a secondary index
 * gets them from its own storage id as a relation does, and built-in
 * objects (schemas, types, the one role and database) use the OIDs
 * PostgreSQL gives them.
 */
public final class PgOids {
    /** PostgreSQL's first OID for user objects; user relations start here. */
    public static final long FIRST_USER_OID = 16384;

    public static final long PG_CATALOG_NAMESPACE = 11;
    public static final long PUBLIC_NAMESPACE = 2200;
    /** Below {@link #FIRST_USER_OID}, like every schema initdb creates. */
    public static final long INFORMATION_SCHEMA_NAMESPACE = 12800;

    public static final long TRIBUTARY_CATALOG_NAMESPACE = 12900;
    /**
     * Extension {@code tributary}, which owns schema {@code tributary_catalog}. Below {@link
     * #FIRST_USER_OID} like plpgsql's, so pg_dump treats it as built in and dumps neither it nor
     * the schema (it skips {@code information_schema} by name, which it cannot do for this one).
     */
    public static final long TRIBUTARY_EXTENSION = 12901;
    /** {@code pg_namespace}'s own OID, the class of every schema ({@code pg_depend.classid}). */
    public static final long PG_NAMESPACE = 2615;
    /** {@code pg_extension}'s own OID ({@code pg_depend.refclassid} of an extension's members). */
    public static final long PG_EXTENSION = 3079;
    /** The bootstrap superuser's OID in every PostgreSQL cluster. */
    public static final long SUPERUSER = 10;
    /** Database {@code dev}; PostgreSQL 15 gives its first database OID 5. */
    public static final long DATABASE = 5;

    /** {@code pg_class}'s own OID, the class of every relation ({@code pg_depend.classid}). */
    public static final long PG_CLASS = 1259;

    public static final long HEAP_AM = 2;
    public static final long BTREE_AM = 403;
    public static final long DEFAULT_TABLESPACE = 1663;
    public static final long DEFAULT_COLLATION = 100;
    public static final long C_COLLATION = 950;
    /** {@code array_in}, the input function of every array type (pg_type.typinput). */
    public static final long ARRAY_IN = 750;

    private PgOids() {}

    /**
     * The OID of the plain view {@code name}. Plain views have no storage id, so theirs comes from
     * the name, in a range above every storage-derived OID: the same across sessions and restarts.
     * Two names could in principle share one (a 30-bit hash); a view's OID names nothing else.
     */
    public static long view(String name) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return 0x8000_0000L + (crc.getValue() & 0x3FFF_FFFCL);
    }

    /**
     * The OID of the database numbered {@code id}: {@link #DATABASE} for {@code dev}, the others in a
     * range of their own below plain views' (databases are shared objects: one OID across all).
     */
    public static long database(int id) {
        return id == 0 ? DATABASE : 0x7000_0000L + id;
    }

    /**
     * The OID of schema {@code name} of {@code catalog}'s database: PostgreSQL's for its built-in
     * schemas, one derived from the schema's id (taken from the relation id counter, so it names no
     * relation) for a schema made by CREATE SCHEMA; -1 when there is no such schema.
     */
    public static long namespace(io.tributary.catalog.Catalog catalog, String name) {
        return switch (name) {
            case "pg_catalog" -> PG_CATALOG_NAMESPACE;
            case io.tributary.catalog.Catalog.SCHEMA -> PUBLIC_NAMESPACE;
            case "information_schema" -> INFORMATION_SCHEMA_NAMESPACE;
            case io.tributary.catalog.SystemTables.SCHEMA -> TRIBUTARY_CATALOG_NAMESPACE;
            default -> catalog.schema(name).map(s -> relation(s.id())).orElse(-1L);
        };
    }

    /** The OID of the table or materialized view with storage id {@code id}. */
    public static long relation(int id) {
        return FIRST_USER_OID + 4L * id;
    }

    /** The storage id whose {@link #relation} OID is {@code oid}, or -1 when {@code oid} is no such OID. */
    public static int relationId(long oid) {
        long offset = oid - FIRST_USER_OID;
        return offset >= 0 && offset % 4 == 0 ? (int) (offset / 4) : -1;
    }

    /**
     * The OID of the {@code pg_attrdef} row of column {@code attnum} of user relation {@code
     * relation}: in a range of its own between the storage-derived OIDs and the plain views'
     * (1600 is PostgreSQL's column limit).
     */
    public static long attributeDefault(long relation, int attnum) {
        return 0x4000_0000L + (relation - FIRST_USER_OID) / 4 * 1600 + attnum;
    }

    /**
     * The OID of CHECK constraint {@code index} of user relation {@code relation}: in a range of its
     * own above {@link #sequence}'s.
     */
    public static long checkConstraint(long relation, int index) {
        return 0x6000_0000L + (relation - FIRST_USER_OID) / 4 * 1600 + index;
    }

    /**
     * The OID of FOREIGN KEY constraint {@code index} of user relation {@code relation}: the upper
     * half of {@link #checkConstraint}'s range (a table has fewer than 800 CHECK constraints).
     */
    public static long foreignKeyConstraint(long relation, int index) {
        return checkConstraint(relation, 800 + index);
    }

    /**
     * The OID of the sequence behind column {@code attnum} of user relation {@code relation} (a
     * SERIAL or identity column): in a range of its own above {@link #attributeDefault}'s.
     */
    public static long sequence(long relation, int attnum) {
        return 0x5000_0000L + (relation - FIRST_USER_OID) / 4 * 1600 + attnum;
    }
}
