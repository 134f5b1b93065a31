package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The column names PostgreSQL gives to unnamed select items, where Calcite would say
 * {@code EXPR$n}: the function name for calls ({@code count}), the type name for casts
 * ({@code int4}), {@code case} for CASE and {@code ?column?} otherwise.
 */
final class ColumnLabels {
    private static final Map<String, String> TYPE_NAMES = Map.ofEntries(
            Map.entry("INTEGER", "int4"), Map.entry("INT", "int4"), Map.entry("INT4", "int4"),
            Map.entry("BIGINT", "int8"), Map.entry("INT8", "int8"), Map.entry("SMALLINT", "int2"),
            Map.entry("INT2", "int2"), Map.entry("REAL", "float4"), Map.entry("FLOAT4", "float4"),
            Map.entry("DOUBLE", "float8"), Map.entry("FLOAT8", "float8"), Map.entry("FLOAT", "float8"),
            Map.entry("DECIMAL", "numeric"), Map.entry("NUMERIC", "numeric"), Map.entry("BOOLEAN", "bool"),
            Map.entry("BOOL", "bool"), Map.entry("VARCHAR", "varchar"), Map.entry("CHAR", "bpchar"),
            Map.entry("TEXT", "text"), Map.entry("DATE", "date"), Map.entry("TIME", "time"),
            Map.entry("TIMESTAMP", "timestamp"), Map.entry("TIMESTAMPTZ", "timestamptz"),
            Map.entry("INTERVAL", "interval"), Map.entry("BYTEA", "bytea"), Map.entry("VARBINARY", "bytea"));

    private ColumnLabels() {
    }

    /** One label per select item, or null when the select list has a {@code *} (positions unknown). */
    static List<String> of(SqlNode query) {
        SqlNode node = query instanceof org.apache.calcite.sql.SqlWith with ? with.body : query;
        node = node instanceof SqlOrderBy ob ? ob.query : node;
        if (!(node instanceof SqlSelect select)) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlIdentifier id && id.isStar()) {
                return null;
            }
            out.add(label(item));
        }
        return out;
    }

    private static String label(SqlNode item) {
        if (item instanceof SqlIdentifier id) {
            return id.names.get(id.names.size() - 1);
        }
        if (item.getKind() == SqlKind.AS) {
            return ((SqlCall) item).operand(1).toString();
        }
        if (item.getKind() == SqlKind.FILTER || item.getKind() == SqlKind.WITHIN_GROUP
                || item.getKind() == SqlKind.OVER) {
            // sum(x) FILTER (WHERE ...), percentile_cont(...) WITHIN GROUP (...), f(x) OVER (...): the function's name
            return label(((SqlCall) item).operand(0));
        }
        if (item.getKind() == SqlKind.CAST && item instanceof SqlBasicCall call
                && call.operand(1) instanceof SqlDataTypeSpec spec) {
            String name = spec.getTypeName().getSimple().toUpperCase(Locale.ROOT);
            return TYPE_NAMES.getOrDefault(name, name.toLowerCase(Locale.ROOT));
        }
        if (item.getKind() == SqlKind.CASE) {
            return "case";
        }
        if (item instanceof SqlCall call && call.getOperator() instanceof SqlFunction f) {
            return f.getName().toLowerCase(Locale.ROOT);
        }
        return "?column?";
    }
}
