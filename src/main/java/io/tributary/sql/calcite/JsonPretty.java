package io.tributary.sql.calcite;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.common.types.PgJsonText;
import java.util.List;
import java.util.Map;

/**
 * {@code jsonb_pretty}'s text: every member of a non-empty object or array on its own line,
 * indented four spaces a level, keys in jsonb's order; an empty one opens and closes on two lines.
 * Stateless; called by {@link PgJsonFunctions}.
 */
final class JsonPretty {
    private static final String INDENT = "    ";

    private JsonPretty() {}

    static void write(JsonNode n, int level, StringBuilder out) {
        if (n.isObject()) {
            out.append('{');
            List<Map.Entry<String, JsonNode>> fields = PgJsonText.sortedFields(n);
            for (int i = 0; i < fields.size(); i++) {
                out.append(i == 0 ? "" : ",").append('\n').append(INDENT.repeat(level + 1));
                PgJsonText.quote(fields.get(i).getKey(), out);
                out.append(": ");
                write(fields.get(i).getValue(), level + 1, out);
            }
            out.append('\n').append(INDENT.repeat(level)).append('}');
        } else if (n.isArray()) {
            out.append('[');
            for (int i = 0; i < n.size(); i++) {
                out.append(i == 0 ? "\n" : ",\n").append(INDENT.repeat(level + 1));
                write(n.get(i), level + 1, out);
            }
            out.append('\n').append(INDENT.repeat(level)).append(']');
        } else {
            out.append(PgJsonText.normalize(n));
        }
    }
}
