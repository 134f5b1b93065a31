package io.tributary.common.types;

/**
 * A column type: a kind plus its modifiers. {@code precision} is NUMERIC's precision or VARCHAR's
 * length, {@code scale} is NUMERIC's scale; -1 means "not given" (unbounded).
 */
public record DataType(TypeKind kind, int precision, int scale) {
    public static final DataType BOOLEAN = of(TypeKind.BOOLEAN);
    public static final DataType SMALLINT = of(TypeKind.SMALLINT);
    public static final DataType INTEGER = of(TypeKind.INTEGER);
    public static final DataType BIGINT = of(TypeKind.BIGINT);
    public static final DataType REAL = of(TypeKind.REAL);
    public static final DataType DOUBLE = of(TypeKind.DOUBLE);
    public static final DataType NUMERIC = of(TypeKind.NUMERIC);
    public static final DataType TEXT = of(TypeKind.TEXT);
    public static final DataType VARCHAR = of(TypeKind.VARCHAR);
    public static final DataType DATE = of(TypeKind.DATE);
    public static final DataType TIME = of(TypeKind.TIME);
    public static final DataType TIMESTAMP = of(TypeKind.TIMESTAMP);
    public static final DataType TIMESTAMPTZ = of(TypeKind.TIMESTAMPTZ);
    public static final DataType INTERVAL = of(TypeKind.INTERVAL);
    public static final DataType BYTEA = of(TypeKind.BYTEA);
    public static final DataType UUID = of(TypeKind.UUID);
    public static final DataType JSON = of(TypeKind.JSON);
    public static final DataType JSONB = of(TypeKind.JSONB);

    public static DataType of(TypeKind kind) {
        return new DataType(kind, -1, -1);
    }

    public static DataType numeric(int precision, int scale) {
        return new DataType(TypeKind.NUMERIC, precision, scale);
    }

    public static DataType varchar(int length) {
        return new DataType(TypeKind.VARCHAR, length, -1);
    }

    /** The atttypmod PostgreSQL sends in RowDescription for this type, -1 when none. */
    public int typmod() {
        if (kind == TypeKind.NUMERIC && precision > 0) {
            return ((precision << 16) | Math.max(scale, 0)) + 4;
        }
        if (kind == TypeKind.VARCHAR && precision > 0) {
            return precision + 4;
        }
        return -1;
    }

    /** The type as PostgreSQL's {@code format_type} prints it, e.g. {@code numeric(10,2)}. */
    public String sqlName() {
        if (kind == TypeKind.NUMERIC && precision > 0) {
            return "numeric(" + precision + "," + Math.max(scale, 0) + ")";
        }
        if (kind == TypeKind.VARCHAR && precision > 0) {
            return "character varying(" + precision + ")";
        }
        return kind.pgName();
    }

    @Override
    public String toString() {
        return sqlName();
    }
}
