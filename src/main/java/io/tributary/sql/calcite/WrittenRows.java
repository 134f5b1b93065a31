package io.tributary.sql.calcite;

import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.sql.ResultColumn;
import java.util.List;

/**
 * The FROM item through which RETURNING lists and ON CONFLICT DO UPDATE expressions read a row the
 * statement writes: a one-row VALUES of typed parameters, named like the table and its visible
 * columns, so the expressions are planned once and evaluated per row with the row's values bound.
 * Stateless.
 */
final class WrittenRows {
    private WrittenRows() {}

    /**
     * {@code (VALUES (CAST($first AS type), ...)) AS "alias"("column", ...)} over {@code columns}.
     *
     * @throws TributaryException 0A000 for an INTERVAL column, which a parameter cannot be cast to
     */
    static String source(TableDef table, int[] columns, int firstParameter, String alias) {
        StringBuilder values = new StringBuilder("(VALUES (");
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < columns.length; i++) {
            String sep = i == 0 ? "" : ", ";
            values.append(sep)
                    .append("CAST($")
                    .append(firstParameter + i)
                    .append(" AS ")
                    .append(typeName(table.columns().get(columns[i]).type()))
                    .append(')');
            names.append(sep).append(quote(table.columns().get(columns[i]).name()));
        }
        return values.append(")) AS ")
                .append(quote(alias))
                .append('(')
                .append(names)
                .append(')')
                .toString();
    }

    /**
     * {@code (VALUES (CAST($first AS type), ...)) AS "alias"("column", ...)} over {@code columns}
     * of another relation (one an UPDATE or DELETE joins).
     *
     * @throws TributaryException 0A000 for an INTERVAL column
     */
    static String source(String alias, List<ResultColumn> columns, int firstParameter) {
        StringBuilder values = new StringBuilder("(VALUES (");
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            String sep = i == 0 ? "" : ", ";
            values.append(sep)
                    .append("CAST($")
                    .append(firstParameter + i)
                    .append(" AS ")
                    .append(typeName(columns.get(i).type()))
                    .append(')');
            names.append(sep).append(quote(columns.get(i).name()));
        }
        return values.append(")) AS ")
                .append(quote(alias))
                .append('(')
                .append(names)
                .append(')')
                .toString();
    }

    private static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private static String typeName(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "boolean";
            case SMALLINT -> "smallint";
            case INTEGER -> "integer";
            case BIGINT -> "bigint";
            case REAL -> "real";
            case DOUBLE -> "double precision";
            case NUMERIC ->
                type.precision() > 0
                        ? "numeric(" + type.precision() + ", " + Math.max(type.scale(), 0) + ")"
                        : "numeric";
            case VARCHAR -> type.precision() > 0 ? "varchar(" + type.precision() + ")" : "varchar";
            case TEXT -> "text";
            case BPCHAR -> type.precision() > 0 ? "char(" + type.precision() + ")" : "varchar";
            case DATE -> "date";
            case TIME -> "time";
            case TIMESTAMP -> "timestamp";
            case TIMESTAMPTZ -> "timestamptz";
            case BYTEA -> "bytea";
            case UUID -> "uuid";
            case JSON -> "json";
            case JSONB -> "jsonb";
            case INTERVAL ->
                throw TributaryException.notSupported(
                        "RETURNING and ON CONFLICT DO UPDATE on a table with an INTERVAL column");
            case ARRAY -> typeName(type.element()) + " ARRAY";
        };
    }
}
