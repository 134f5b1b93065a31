package io.tributary.sql.calcite;

import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL type names Calcite does not know ({@code text}, {@code int8}, {@code float8} ...), as
 * named types in the root schema, which is where Calcite resolves the target of {@code x::name}.
 */
final class PgTypeAliases {
    private PgTypeAliases() {
    }

    static void register(SchemaPlus root) {
        alias(root, SqlTypeName.VARCHAR, "text", "string");
        alias(root, SqlTypeName.INTEGER, "int4");
        alias(root, SqlTypeName.BIGINT, "int8");
        alias(root, SqlTypeName.SMALLINT, "int2");
        alias(root, SqlTypeName.REAL, "float4");
        alias(root, SqlTypeName.DOUBLE, "float8");
        alias(root, SqlTypeName.BOOLEAN, "bool");
        alias(root, SqlTypeName.VARBINARY, "bytea");
        alias(root, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, "timestamptz");
    }

    private static void alias(SchemaPlus root, SqlTypeName type, String... names) {
        for (String name : names) {
            root.add(name, f -> f.createTypeWithNullability(f.createSqlType(type), true));
        }
    }
}
