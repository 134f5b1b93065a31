package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.sql.PgTypeNames;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The PostgreSQL type names of {@link PgTypeNames} that Calcite does not know ({@code text},
 * {@code int8}, {@code float8} ...), as named types in the root schema, which is where Calcite
 * resolves the target of {@code x::name}. Called once per schema when a front end is built.
 */
final class PgTypeAliases {
    private PgTypeAliases() {}

    static void register(SchemaPlus root) {
        for (Map.Entry<String, DataType> e : PgTypeNames.all().entrySet()) {
            // Calcite parses its own names (and INTERVAL, which needs a qualifier) itself
            if (SqlTypeName.get(e.getKey().toUpperCase(Locale.ROOT)) != null
                    || e.getValue().kind() == TypeKind.INTERVAL
                    // JsonCasts writes casts to these as calls
                    || e.getValue().kind() == TypeKind.JSON
                    || e.getValue().kind() == TypeKind.JSONB) {
                continue;
            }
            DataType type = e.getValue();
            // Calcite's default precision, as a cast to a built-in name gets (not the column's)
            root.add(
                    e.getKey(),
                    f -> f.createTypeWithNullability(
                            f.createSqlType(TypeMapping.toRelType(f, type, true).getSqlTypeName()), true));
        }
    }
}
