package io.tributary.server.http;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SystemTable;
import io.tributary.common.types.TypeKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A system table's rows as JSON objects keyed by column name, so the API shows exactly what
 * {@code SELECT * FROM tributary_catalog.<table>} shows. Timestamps become epoch milliseconds;
 * numbers, booleans and text stay as they are; any other value is its string form. Stateless.
 */
final class SystemRows {
    private SystemRows() {}

    static List<Map<String, Object>> of(SystemTable table) {
        List<ColumnDef> columns = table.columns();
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object[] row : table.rows()) {
            Map<String, Object> json = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                json.put(columns.get(i).name(), value(columns.get(i), row[i]));
            }
            out.add(json);
        }
        return out;
    }

    private static Object value(ColumnDef column, Object v) {
        if (v == null) {
            return null;
        }
        TypeKind kind = column.type().kind();
        if ((kind == TypeKind.TIMESTAMPTZ || kind == TypeKind.TIMESTAMP) && v instanceof Long micros) {
            return Math.floorDiv(micros, 1000L);
        }
        if (v instanceof Number || v instanceof Boolean || v instanceof String) {
            return v;
        }
        return String.valueOf(v);
    }
}
