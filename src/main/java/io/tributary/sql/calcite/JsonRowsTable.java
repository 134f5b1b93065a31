package io.tributary.sql.calcite;

import io.tributary.common.types.TypeKind;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The rows one call of a {@link JsonTableFunctions} function answers, computed when it is called,
 * with PostgreSQL's column names: {@code (key, value)}, {@code (value)} or a single text column
 * named after the function. Value columns are json, jsonb (values {@code PgJson}/{@code PgJsonb})
 * or text. Immutable; scanned on the query's thread, as often as the plan asks.
 */
final class JsonRowsTable extends AbstractTable implements ScannableTable {
    private final String keyColumn;
    /** JSON, JSONB or TEXT; null when the table has only the key column. */
    private final TypeKind value;

    private final List<Object[]> rows;

    private JsonRowsTable(String keyColumn, TypeKind value, List<Object[]> rows) {
        this.keyColumn = keyColumn;
        this.value = value;
        this.rows = rows;
    }

    /** Rows {@code {key, value}}. */
    static JsonRowsTable pairs(TypeKind value, List<Object[]> rows) {
        return new JsonRowsTable("key", value, rows);
    }

    /** Rows {@code {value}}. */
    static JsonRowsTable values(TypeKind value, List<Object[]> rows) {
        return new JsonRowsTable(null, value, rows);
    }

    /** Rows {@code {key}} in a text column named {@code column}. */
    static JsonRowsTable keys(String column, List<Object[]> rows) {
        return new JsonRowsTable(column, null, rows);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataType text = typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.VARCHAR), true);
        RelDataTypeFactory.Builder row = typeFactory.builder();
        if (keyColumn != null) {
            row.add(keyColumn, text);
        }
        if (value != null) {
            row.add("value", value == TypeKind.TEXT ? text : PgJsonTypes.type(typeFactory, value));
        }
        return row.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return Linq4j.asEnumerable(rows);
    }
}
