package io.tributary.common.types;

/**
 * A column type: a kind plus its modifiers. {@code precision} is NUMERIC's precision, VARCHAR's
 * and BPCHAR's length or the fraction digits (0 to 6) of TIME, TIMESTAMP and TIMESTAMPTZ, {@code scale} is NUMERIC's scale; -1 means "not given" (unbounded). {@code
 * element} is an ARRAY's element type (never itself an array), null for every other kind. The
 * record is stored in the catalog as JSON: records written before arrays existed lack {@code
 * element}, which reads as null.
 */
public record DataType(TypeKind kind, int precision, int scale, DataType element) {
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
        return new DataType(kind, -1, -1, null);
    }

    public static DataType numeric(int precision, int scale) {
        return new DataType(TypeKind.NUMERIC, precision, scale, null);
    }

    public static DataType varchar(int length) {
        return new DataType(TypeKind.VARCHAR, length, -1, null);
    }

    /** {@code character(n)}; a length of -1 is {@code bpchar}, which pads nothing. */
    public static DataType bpchar(int length) {
        return new DataType(TypeKind.BPCHAR, length, -1, null);
    }

    /**
     * {@code time(p)}, {@code timestamp(p)} or {@code timestamptz(p)} ({@code kind} one of those):
     * values keep {@code precision} fraction digits (0 to 6); -1 is the type without a modifier.
     */
    public static DataType withFractionDigits(TypeKind kind, int precision) {
        if (kind != TypeKind.TIME && kind != TypeKind.TIMESTAMP && kind != TypeKind.TIMESTAMPTZ) {
            throw new IllegalArgumentException("no fraction digits for " + kind);
        }
        return new DataType(kind, precision, -1, null);
    }

    /** The fraction digits a time(p), timestamp(p) or timestamptz(p) keeps; -1 for any other type. */
    public int fractionDigits() {
        return hasFractionDigits() ? precision : -1;
    }

    private boolean hasFractionDigits() {
        return (kind == TypeKind.TIME || kind == TypeKind.TIMESTAMP || kind == TypeKind.TIMESTAMPTZ) && precision >= 0;
    }

    /** The one-dimensional array of {@code element}, which must not be an array. */
    public static DataType array(DataType element) {
        if (element.kind == TypeKind.ARRAY) {
            throw new IllegalArgumentException("nested array type " + element);
        }
        return new DataType(TypeKind.ARRAY, -1, -1, element);
    }

    /**
     * The type a wire OID names, a base type's or the array of one (1007 is {@code integer[]});
     * null when Tributary has no such type.
     */
    public static DataType ofOid(int oid) {
        TypeKind kind = TypeKind.ofOid(oid);
        if (kind != null) {
            return kind == TypeKind.BPCHAR ? bpchar(-1) : of(kind);
        }
        for (TypeKind k : TypeKind.values()) {
            if (k.arrayOid() == oid && k.arrayElement()) {
                return array(of(k));
            }
        }
        return null;
    }

    /** PostgreSQL's OID of this type: an array's is its element's array OID. */
    public int oid() {
        return kind == TypeKind.ARRAY ? element.kind.arrayOid() : kind.oid();
    }

    /** The atttypmod PostgreSQL sends in RowDescription for this type, -1 when none. */
    public int typmod() {
        if (kind == TypeKind.NUMERIC && precision > 0) {
            return ((precision << 16) | Math.max(scale, 0)) + 4;
        }
        if ((kind == TypeKind.VARCHAR || kind == TypeKind.BPCHAR) && precision > 0) {
            return precision + 4;
        }
        if (hasFractionDigits()) {
            return precision; // PostgreSQL's time and timestamp typmod is the precision itself
        }
        // PostgreSQL gives an array column its element's modifier (varchar(5)[] has 9)
        return kind == TypeKind.ARRAY ? element.typmod() : -1;
    }

    /** The type as PostgreSQL's {@code format_type} prints it, e.g. {@code numeric(10,2)}. */
    public String sqlName() {
        if (kind == TypeKind.NUMERIC && precision > 0) {
            return "numeric(" + precision + "," + Math.max(scale, 0) + ")";
        }
        if (kind == TypeKind.VARCHAR && precision > 0) {
            return "character varying(" + precision + ")";
        }
        if (kind == TypeKind.BPCHAR) {
            return precision > 0 ? "character(" + precision + ")" : "bpchar";
        }
        if (hasFractionDigits()) {
            // "timestamp(3) without time zone": the precision follows the first word
            String name = kind.pgName();
            int space = name.indexOf(' ');
            return name.substring(0, space) + "(" + precision + ")" + name.substring(space);
        }
        return kind == TypeKind.ARRAY ? element.sqlName() + "[]" : kind.pgName();
    }

    @Override
    public String toString() {
        return sqlName();
    }
}
