package io.tributary.server.session;

import io.tributary.common.types.DataType;

/**
 * A result column: its label, its type and the PostgreSQL type OID the client is told, which is
 * the type's own except for a {@code void} column ({@link #ofVoid}), a text column described as
 * a catalog type ({@code regtype}, {@code "char"}, {@code name}, {@code record}) and a catalog
 * {@code oid} column held as bigint (see {@link #describedOid}).
 */
public record ColumnDesc(String name, DataType type, int typeOid) {
    /** The OID of PostgreSQL's {@code void}, the type of functions that return nothing. */
    public static final int VOID_OID = 2278;

    /** The OID of PostgreSQL's {@code regtype}, whose binary form is the type's OID, not its name. */
    private static final int REGTYPE_OID = 2206;

    /** The OID of PostgreSQL's {@code oid}, whose binary form is four bytes; Tributary holds it as bigint. */
    private static final int OID_OID = 26;

    public ColumnDesc(String name, DataType type) {
        this(name, type, type.oid());
    }

    /**
     * The OID a RowDescription tells for this column sent in {@code format} (0 text, 1 binary): a
     * {@code regtype} column's values are the type names as text and a catalog {@code oid} column's
     * are bigints, neither of which is the type's binary form (a 4-byte OID), so in binary the
     * column is described as what its bytes are, text or int8.
     */
    public int describedOid(short format) {
        return format == 1 && (typeOid == REGTYPE_OID || typeOid == OID_OID) ? type.oid() : typeOid;
    }

    /** A column of type {@code void}: its values are empty text. */
    public static ColumnDesc ofVoid(String name) {
        return new ColumnDesc(name, DataType.of(io.tributary.common.types.TypeKind.TEXT), VOID_OID);
    }
}
