package io.tributary.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.ArraySqlType;

/**
 * PostgreSQL's {@code text[]} as {@code regexp_match} returns it: an array of nullable text for
 * every operator (subscripts above all), whose digest {@value #NAME} survives into the result
 * metadata, where {@link CalcitePreparedQuery} makes it a {@code text[]} result column (OID 1009).
 * Nullable, as the function answers NULL when nothing matches.
 */
final class TextArrayType extends ArraySqlType {
    /** The type's name in Calcite's digest and in JDBC result metadata. */
    static final String NAME = "TEXT[]";

    TextArrayType(RelDataType elementType) {
        super(elementType, true);
    }

    @Override
    protected void generateTypeString(StringBuilder sb, boolean withDetail) {
        sb.append(NAME);
    }
}
