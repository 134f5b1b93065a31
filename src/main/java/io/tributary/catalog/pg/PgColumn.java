package io.tributary.catalog.pg;

import io.tributary.common.types.DataType;

/**
 * A column of a {@code pg_catalog} or {@code information_schema} relation, typed as PostgreSQL
 * declares it ({@code oid}, {@code name}, {@code char}, {@code int2}, ..., {@code text[]}).
 * Values are held in the canonical Java form of {@link #type()}; an array column holds a
 * {@code List} of its element's canonical values.
 *
 * @param pgType PostgreSQL's type name, with {@code []} for an array
 */
public record PgColumn(String name, String pgType) {
    /**
     * The type Tributary stores the column as (of the elements, for an array): {@code oid} as
     * bigint (an oid is unsigned 32-bit), {@code name}, {@code char} and text-like types as text.
     */
    public DataType type() {
        return switch (elementType()) {
            case "oid", "int8", "xid", "regproc" -> DataType.BIGINT;
            case "int4" -> DataType.INTEGER;
            case "int2", "int2vector" -> DataType.SMALLINT;
            case "bool" -> DataType.BOOLEAN;
            case "float4" -> DataType.REAL;
            case "timestamptz" -> DataType.TIMESTAMPTZ;
            default -> DataType.TEXT;
        };
    }

    public boolean array() {
        return pgType.endsWith("[]");
    }

    /**
     * Whether the column is an {@code int2vector}: held as a list of {@code int2} like an array
     * (so subscripts, {@code ANY} and {@code _pg_expandarray} work on it) but printed as
     * PostgreSQL prints the vector, its elements separated by spaces ({@code 1 2}).
     */
    public boolean vector() {
        return pgType.equals("int2vector");
    }

    /** The type's name without {@code []}. */
    public String elementType() {
        return array() ? pgType.substring(0, pgType.length() - 2) : pgType;
    }

    /** The OID of {@link #pgType()} as PostgreSQL numbers it (pg_attribute.atttypid). */
    public int typeOid() {
        return PgTypes.oidOf(pgType);
    }

    /**
     * Parses {@code "oid oid, relname name, reloptions text[]"}: a comma-separated list of name
     * and type.
     */
    static java.util.List<PgColumn> parse(String spec) {
        java.util.List<PgColumn> out = new java.util.ArrayList<>();
        for (String part : spec.split(",")) {
            String[] nt = part.trim().split("\\s+");
            out.add(new PgColumn(nt[0], nt[1]));
        }
        return java.util.List.copyOf(out);
    }
}
