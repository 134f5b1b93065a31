package io.tributary.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.types.DataType;
import io.tributary.server.session.ColumnDesc;
import org.junit.jupiter.api.Test;

/**
 * The OID a RowDescription tells per format: a {@code pg_typeof} column (regtype, 2206) holds the
 * type's name as text, so a client asking for it in binary is told text (25), whose binary form
 * those bytes are, not regtype (whose binary form is a 4-byte OID); a catalog {@code oid} column
 * (26) holds bigints, so in binary it is told int8 (20).
 */
class ColumnDescTest {
    @Test
    void regtypeIsTextInBinaryOnly() {
        ColumnDesc typeOf = new ColumnDesc("pg_typeof", DataType.TEXT, 2206);
        assertEquals(2206, typeOf.describedOid((short) 0));
        assertEquals(25, typeOf.describedOid((short) 1));
        ColumnDesc plain = new ColumnDesc("i", DataType.INTEGER);
        assertEquals(23, plain.describedOid((short) 1));
    }

    @Test
    void oidIsInt8InBinaryOnly() {
        ColumnDesc oid = new ColumnDesc("oid", DataType.BIGINT, 26);
        assertEquals(26, oid.describedOid((short) 0));
        assertEquals(20, oid.describedOid((short) 1));
    }
}
