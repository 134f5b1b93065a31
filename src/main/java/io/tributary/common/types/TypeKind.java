package io.tributary.common.types;

/**
 * The SQL types Tributary stores, with their PostgreSQL type OIDs. Each kind has one canonical Java
 * representation used everywhere inside the engine (rows, keys, wire formats):
 * BOOLEAN {@code Boolean}, SMALLINT {@code Short}, INTEGER {@code Integer}, BIGINT {@code Long},
 * REAL {@code Float}, DOUBLE {@code Double}, NUMERIC {@code BigDecimal}, VARCHAR/TEXT {@code String},
 * DATE {@code Integer} days since 1970-01-01, TIME {@code Long} microseconds of the day,
 * TIMESTAMP/TIMESTAMPTZ {@code Long} microseconds since 1970-01-01 00:00 (UTC for TIMESTAMPTZ),
 * INTERVAL {@link Interval}, BYTEA {@code byte[]}, UUID {@link java.util.UUID}, JSON {@link PgJson}, JSONB {@link PgJsonb}. SQL NULL is Java
 * {@code null}.
 */
public enum TypeKind {
    BOOLEAN(16, "boolean", 1),
    SMALLINT(21, "smallint", 2),
    INTEGER(23, "integer", 4),
    BIGINT(20, "bigint", 8),
    REAL(700, "real", 4),
    DOUBLE(701, "double precision", 8),
    NUMERIC(1700, "numeric", -1),
    VARCHAR(1043, "character varying", -1),
    TEXT(25, "text", -1),
    DATE(1082, "date", 4),
    TIME(1083, "time without time zone", 8),
    TIMESTAMP(1114, "timestamp without time zone", 8),
    TIMESTAMPTZ(1184, "timestamp with time zone", 8),
    INTERVAL(1186, "interval", 16),
    BYTEA(17, "bytea", -1),
    UUID(2950, "uuid", 16),
    JSON(114, "json", -1),
    JSONB(3802, "jsonb", -1);

    private final int oid;
    private final String pgName;
    private final int wireLength;

    TypeKind(int oid, String pgName, int wireLength) {
        this.oid = oid;
        this.pgName = pgName;
        this.wireLength = wireLength;
    }

    public int oid() {
        return oid;
    }

    /** The name PostgreSQL's {@code format_type} prints. */
    public String pgName() {
        return pgName;
    }

    /** The typlen in RowDescription: fixed size in bytes, -1 for variable length. */
    public int wireLength() {
        return wireLength;
    }

    /** The kind with this OID, or null when Tributary has no such type. */
    public static TypeKind ofOid(int oid) {
        for (TypeKind k : values()) {
            if (k.oid == oid) {
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
