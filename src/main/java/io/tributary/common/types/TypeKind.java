package io.tributary.common.types;

/**
 * The SQL types Tributary stores, with their PostgreSQL type OIDs. Each kind has one canonical Java
 * representation used everywhere inside the engine (rows, keys, wire formats):
 * BOOLEAN {@code Boolean}, SMALLINT {@code Short}, INTEGER {@code Integer}, BIGINT {@code Long},
 * REAL {@code Float}, DOUBLE {@code Double}, NUMERIC {@code BigDecimal}, VARCHAR/TEXT {@code String},
 * DATE {@code Integer} days since 1970-01-01, TIME {@code Long} microseconds of the day,
 * TIMESTAMP/TIMESTAMPTZ {@code Long} microseconds since 1970-01-01 00:00 (UTC for TIMESTAMPTZ),
 * INTERVAL {@link Interval}, BYTEA {@code byte[]}, UUID {@link java.util.UUID}, JSON {@link PgJson}, JSONB {@link PgJsonb},
 * BPCHAR ({@code character(n)}) {@code String} padded with blanks to its length, ARRAY a {@code
 * java.util.List} of its element type's canonical values (null for a NULL element; one dimension,
 * subscripts from 1). SQL NULL is Java {@code null}.
 */
public enum TypeKind {
    BOOLEAN(16, 1000, "boolean", 1),
    SMALLINT(21, 1005, "smallint", 2),
    INTEGER(23, 1007, "integer", 4),
    BIGINT(20, 1016, "bigint", 8),
    REAL(700, 1021, "real", 4),
    DOUBLE(701, 1022, "double precision", 8),
    NUMERIC(1700, 1231, "numeric", -1),
    VARCHAR(1043, 1015, "character varying", -1),
    TEXT(25, 1009, "text", -1),
    BPCHAR(1042, 1014, "character", -1),
    DATE(1082, 1182, "date", 4),
    TIME(1083, 1183, "time without time zone", 8),
    TIMESTAMP(1114, 1115, "timestamp without time zone", 8),
    TIMESTAMPTZ(1184, 1185, "timestamp with time zone", 8),
    INTERVAL(1186, 1187, "interval", 16),
    BYTEA(17, 1001, "bytea", -1),
    UUID(2950, 2951, "uuid", 16),
    JSON(114, 199, "json", -1),
    JSONB(3802, 3807, "jsonb", -1),
    /** A one-dimensional array; its OID and name are its element type's ({@link DataType#oid()}). */
    ARRAY(0, 0, "array", -1);

    private final int oid;
    private final int arrayOid;
    private final String pgName;
    private final int wireLength;

    TypeKind(int oid, int arrayOid, String pgName, int wireLength) {
        this.oid = oid;
        this.arrayOid = arrayOid;
        this.pgName = pgName;
        this.wireLength = wireLength;
    }

    /** The type's OID; 0 for ARRAY, whose OID is its element's array OID ({@link DataType#oid()}). */
    public int oid() {
        return oid;
    }

    /** The OID of the array type whose elements are of this kind ({@code 1007} for integer); 0 for ARRAY. */
    public int arrayOid() {
        return arrayOid;
    }

    /**
     * Whether arrays of this kind are Tributary values (columns, results, parameters): the
     * scalar kinds whose array text, binary and stored forms are implemented and tested. Arrays of
     * other kinds stay text in query results and are refused (0A000) as column types.
     */
    public boolean arrayElement() {
        return switch (this) {
            case BOOLEAN,
                    SMALLINT,
                    INTEGER,
                    BIGINT,
                    REAL,
                    DOUBLE,
                    NUMERIC,
                    VARCHAR,
                    TEXT,
                    DATE,
                    TIMESTAMP,
                    TIMESTAMPTZ -> true;
            default -> false;
        };
    }

    /** The name PostgreSQL's {@code format_type} prints. */
    public String pgName() {
        return pgName;
    }

    /** The typlen in RowDescription: fixed size in bytes, -1 for variable length. */
    public int wireLength() {
        return wireLength;
    }

    /** The kind with this OID, or null when Tributary has no such type (arrays: {@link DataType#ofOid}). */
    public static TypeKind ofOid(int oid) {
        for (TypeKind k : values()) {
            if (k.oid == oid && oid != 0) {
                return k;
            }
        }
        return null;
    }

    public boolean isNumeric() {
        return this == SMALLINT
                || this == INTEGER
                || this == BIGINT
                || this == REAL
                || this == DOUBLE
                || this == NUMERIC;
    }

    public boolean isString() {
        return this == VARCHAR || this == TEXT;
    }
}
