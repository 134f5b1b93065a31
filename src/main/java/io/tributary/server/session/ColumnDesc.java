package io.tributary.server.session;

import io.tributary.common.types.DataType;

/**
 * A result column: its label, its type and the PostgreSQL type OID the client is told, which is
 * the type's own except for a {@code void} column ({@link #ofVoid}).
 */
public record ColumnDesc(String name, DataType type, int typeOid) {
    /** The OID of PostgreSQL's {@code void}, the type of functions that return nothing. */
    public static final int VOID_OID = 2278;

    public ColumnDesc(String name, DataType type) {
        this(name, type, type.oid());
    }

    /** A column of type {@code void}: its values are empty text. */
    public static ColumnDesc ofVoid(String name) {
        return new ColumnDesc(name, DataType.of(io.tributary.common.types.TypeKind.TEXT), VOID_OID);
    }
}
