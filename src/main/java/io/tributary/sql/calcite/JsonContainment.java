package io.tributary.sql.calcite;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * jsonb's containment ({@code @>}) as PostgreSQL defines it: an object contains an object whose
 * every pair it holds with a contained value; an array contains an array whose every element is
 * contained in one of its elements; scalars contain equal scalars (numbers by value); and, at the
 * top level only, an array contains a scalar it holds. Stateless; called by {@link
 * PgJsonFunctions}.
 */
final class JsonContainment {
    private JsonContainment() {}

    static boolean contains(JsonNode a, JsonNode b, boolean top) {
        if (a.isObject()) {
            if (!b.isObject()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = b.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode mine = a.get(e.getKey());
                if (mine == null || !contains(mine, e.getValue(), false)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray()) {
            if (b.isArray()) {
                for (JsonNode wanted : b) {
                    if (!holds(a, wanted)) {
                        return false;
                    }
                }
                return true;
            }
            return top && !b.isObject() && holds(a, b);
        }
        return scalarEquals(a, b);
    }

    /** Whether some element of array {@code a} contains {@code wanted} (scalars: equals one). */
    private static boolean holds(JsonNode a, JsonNode wanted) {
        for (JsonNode element : a) {
            boolean sameKind =
                    element.isContainerNode() == wanted.isContainerNode() && element.isArray() == wanted.isArray();
            if (sameKind && contains(element, wanted, false)) {
                return true;
            }
        }
        return false;
    }

    private static boolean scalarEquals(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return !b.isContainerNode() && a.getNodeType() == b.getNodeType() && a.equals(b);
    }
}
