package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;

/**
 * A column of a query result: its label, its type and the PostgreSQL type OID the client is told,
 * which is the type's own except for text-held values of a catalog type: a row value ({@code
 * record}, 2249) as its text, a {@code pg_typeof} column ({@code regtype}, 2206) as the type's name,
 * catalog {@code "char"} (18) and {@code name} (19) columns, and a catalog {@code oid} (26) column,
 * whose values are bigints. The others' values are text in both formats; in binary a regtype
 * column is described as text and an oid column as int8 ({@code ColumnDesc.describedOid}).
 */
public record ResultColumn(String name, DataType type, int typeOid) {
    public ResultColumn(String name, DataType type) {
        this(name, type, type.oid());
    }

    /** Whether the column holds row values' text, {@code (1,"a b",)}, typed {@code record}. */
    public boolean isRecord() {
        return typeOid == RECORD_OID;
    }

    /**
     * Refuses a record column as a column of a table or view, as PostgreSQL does.
     *
     * @param name the column's name there
     * @throws TributaryException 42P16 for a record column
     */
    public void requireStorable(String name) {
        if (isRecord()) {
            throw new TributaryException(
                    SqlState.INVALID_TABLE_DEFINITION, "column \"" + name + "\" has pseudo-type record");
        }
    }

    /** The OID of PostgreSQL's {@code record}. */
    public static final int RECORD_OID = 2249;
}
