package io.tributary.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.ArraySqlType;

/**
 * PostgreSQL's {@code int2vector} (as in {@code pg_index.indkey}) as Calcite sees it: an array of
 * {@code int2} for every operator (subscripts, {@code = ANY}, {@code UNNEST}, casts to
 * {@code int2[]}), whose digest {@value #NAME} survives into the result metadata, where
 * {@link CalcitePreparedQuery} reads it to print the value as PostgreSQL prints a vector,
 * {@code 1 2}, not {@code {1,2}}. Built by {@link PgCalciteTable} for catalog columns only.
 */
final class Int2VectorType extends ArraySqlType {
    /** The type's name in Calcite's digest and in JDBC result metadata. */
    static final String NAME = "INT2VECTOR";

    Int2VectorType(RelDataType elementType) {
        super(elementType, true);
    }

    @Override
    protected void generateTypeString(StringBuilder sb, boolean withDetail) {
        sb.append(NAME);
    }
}
