package io.tributary.sql.calcite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.PgJsonText;
import io.tributary.common.types.PgJsonb;
import java.util.ArrayList;
import java.util.List;

/**
 * jsonb's key-existence, path-deletion, concatenation and deletion operators and {@code
 * jsonb_set}, registered by {@link CatalogSchema}; {@link PgOperatorText} writes {@code ?}, {@code
 * ?|}, {@code ?&} and {@code #-} as calls of these, {@link JsonbOperands} {@code ||} and {@code -}
 * of jsonb.
 * Called by reflection from generated code, on the thread evaluating the expression. A json
 * argument or an untyped constant is read as jsonb; a text[] operand is an array value (a list)
 * or array text such as {@code '{a,b}'}. Strict: a NULL operand answers NULL.
 */
public final class PgJsonbOperators {
    private PgJsonbOperators() {}

    /**
     * {@code j ? key}: whether {@code key} is a top-level key of object {@code j}, a string element
     * of array {@code j}, or the string {@code j} itself.
     */
    public static Boolean pg_op_jsonb_exists(Object j, String key) {
        JsonNode n = tree(j);
        return n == null || key == null ? null : exists(n, key);
    }

    /** {@code j ?| keys}: whether any of {@code keys} exists in {@code j} as {@code ?} tests. */
    public static Boolean pg_op_jsonb_exists_any(Object j, Object keys) {
        JsonNode n = tree(j);
        if (n == null || keys == null) {
            return null;
        }
        for (String key : texts(keys)) {
            if (key != null && exists(n, key)) {
                return true;
            }
        }
        return false;
    }

    /** {@code j ?& keys}: whether all of {@code keys} (NULL elements aside) exist in {@code j}. */
    public static Boolean pg_op_jsonb_exists_all(Object j, Object keys) {
        JsonNode n = tree(j);
        if (n == null || keys == null) {
            return null;
        }
        for (String key : texts(keys)) {
            if (key != null && !exists(n, key)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code j #- path}: {@code j} without the member {@code path} leads to (an array step is an
     * index, negative from the end); unchanged when the path leads nowhere.
     *
     * @throws TributaryException 22023 when {@code j} is a scalar, 22P02 when an array step is no
     *     integer, as PostgreSQL
     */
    public static PgJsonb pg_op_jsonb_delete_path(Object j, Object path) {
        JsonNode n = tree(j);
        if (n == null || path == null) {
            return null;
        }
        if (!n.isContainerNode()) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "cannot delete path in scalar");
        }
        List<String> steps = texts(path);
        if (!steps.isEmpty()) {
            delete(n, steps, 0);
        }
        return PgJsonText.jsonb(n);
    }

    /**
     * {@code a || b}: two objects merged (the right one's value of a shared key wins), otherwise
     * the two as arrays (a non-array as an array of itself) concatenated, as PostgreSQL.
     */
    public static PgJsonb pg_op_jsonb_concat(Object a, Object b) {
        JsonNode l = tree(a);
        JsonNode r = tree(b);
        if (l == null || r == null) {
            return null;
        }
        if (l.isObject() && r.isObject()) {
            ((ObjectNode) l).setAll((ObjectNode) r);
            return PgJsonText.jsonb(l);
        }
        ArrayNode out = l.isArray()
                ? (ArrayNode) l
                : JsonNodeFactory.instance.arrayNode().add(l);
        if (r.isArray()) {
            out.addAll((ArrayNode) r);
        } else {
            out.add(r);
        }
        return PgJsonText.jsonb(out);
    }

    /**
     * {@code j - key}: without the key of an object or the string elements equal to it of an
     * array; {@code j - index}: without the array element at the index (negative from the end);
     * {@code j - keys}: without each key.
     *
     * @throws TributaryException 22023 for a scalar, or an index into an object, as PostgreSQL
     */
    public static PgJsonb pg_op_jsonb_delete(Object j, Object key) {
        JsonNode n = tree(j);
        if (n == null || key == null) {
            return null;
        }
        if (!n.isContainerNode()) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "cannot delete from scalar");
        }
        if (key instanceof Number index) {
            if (n.isObject()) {
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "cannot delete from object using integer index");
            }
            int i = index.intValue() < 0 ? n.size() + index.intValue() : index.intValue();
            if (i >= 0 && i < n.size()) {
                ((ArrayNode) n).remove(i);
            }
            return PgJsonText.jsonb(n);
        }
        for (String k : key instanceof String one ? List.of(one) : texts(key)) {
            if (k == null) {
                continue;
            }
            if (n.isObject()) {
                ((ObjectNode) n).remove(k);
            } else {
                for (int i = n.size() - 1; i >= 0; i--) {
                    if (n.get(i).isTextual() && n.get(i).textValue().equals(k)) {
                        ((ArrayNode) n).remove(i);
                    }
                }
            }
        }
        return PgJsonText.jsonb(n);
    }

    /** {@code jsonb_set(target, path, value)}: as {@link #jsonb_set(Object, Object, Object, Boolean)}, creating. */
    public static PgJsonb jsonb_set(Object target, Object path, Object value) {
        return jsonb_set(target, path, value, true);
    }

    /**
     * {@code jsonb_set(target, path, value, create_if_missing)}: {@code target} with the member at
     * {@code path} replaced by {@code value}, or added when its last step is missing and {@code
     * create}: a key of an object, or an array index (negative from the end) past either end,
     * which prepends or appends. A path whose earlier steps lead nowhere changes nothing.
     *
     * @throws TributaryException 22023 when {@code target} is a scalar, 22P02 when an array step is
     *     no integer, as PostgreSQL
     */
    public static PgJsonb jsonb_set(Object target, Object path, Object value, Boolean create) {
        JsonNode n = tree(target);
        JsonNode v = tree(value);
        if (n == null || path == null || v == null || create == null) {
            return null;
        }
        if (!n.isContainerNode()) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "cannot set path in scalar");
        }
        List<String> steps = texts(path);
        JsonNode at = n;
        for (int k = 0; k < steps.size() && at != null && at.isContainerNode(); k++) {
            String step = steps.get(k);
            boolean last = k == steps.size() - 1;
            if (at.isObject()) {
                if (step == null) {
                    throw new TributaryException(
                            SqlState.NULL_VALUE_NOT_ALLOWED, "path element at position " + (k + 1) + " is null");
                }
                if (last) {
                    if (at.has(step) || create) {
                        ((ObjectNode) at).set(step, v);
                    }
                    break;
                }
                at = at.get(step);
            } else {
                int index = index(step, k);
                int i = index < 0 ? at.size() + index : index;
                if (last) {
                    if (i >= 0 && i < at.size()) {
                        ((ArrayNode) at).set(i, v);
                    } else if (create) {
                        if (i < 0) {
                            ((ArrayNode) at).insert(0, v);
                        } else {
                            ((ArrayNode) at).add(v);
                        }
                    }
                    break;
                }
                at = i >= 0 && i < at.size() ? at.get(i) : null;
            }
        }
        return PgJsonText.jsonb(n);
    }

    private static void delete(JsonNode n, List<String> steps, int at) {
        String step = steps.get(at);
        boolean last = at == steps.size() - 1;
        JsonNode child;
        if (n.isObject()) {
            if (step == null) {
                return;
            }
            if (last) {
                ((ObjectNode) n).remove(step);
                return;
            }
            child = n.get(step);
        } else if (n.isArray()) {
            int index = index(step, at);
            int i = index < 0 ? n.size() + index : index;
            if (i < 0 || i >= n.size()) {
                return;
            }
            if (last) {
                ((ArrayNode) n).remove(i);
                return;
            }
            child = n.get(i);
        } else {
            return;
        }
        if (child != null && child.isContainerNode()) {
            delete(child, steps, at + 1);
        }
    }

    private static int index(String step, int at) {
        try {
            return Integer.parseInt(step == null ? "" : step.trim());
        } catch (NumberFormatException e) {
            throw new TributaryException(
                    SqlState.INVALID_TEXT_REPRESENTATION,
                    "path element at position " + (at + 1) + " is not an integer: \"" + step + "\"");
        }
    }

    private static boolean exists(JsonNode n, String key) {
        if (n.isObject()) {
            return n.has(key);
        }
        if (n.isArray()) {
            for (JsonNode e : n) {
                if (e.isTextual() && e.textValue().equals(key)) {
                    return true;
                }
            }
            return false;
        }
        return n.isTextual() && n.textValue().equals(key);
    }

    /** The elements of a text[] operand: a list's elements as text, or array text's elements. */
    private static List<String> texts(Object array) {
        if (array instanceof List<?> list) {
            List<String> out = new ArrayList<>(list.size());
            for (Object e : list) {
                out.add(e == null ? null : e.toString());
            }
            return out;
        }
        return PgJsonFunctions.pathSteps(array.toString());
    }

    private static JsonNode tree(Object j) {
        if (j == null) {
            return null;
        }
        String text = j instanceof PgJsonb b
                ? b.text()
                : PgJsonText.jsonb(j.toString()).text();
        return PgJsonText.tree(text);
    }
}
