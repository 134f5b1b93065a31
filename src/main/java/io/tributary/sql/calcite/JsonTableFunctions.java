package io.tributary.sql.calcite;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.PgJson;
import io.tributary.common.types.PgJsonText;
import io.tributary.common.types.PgJsonb;
import io.tributary.common.types.TypeKind;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.util.NlsString;

/**
 * PostgreSQL's set-returning json functions, as Calcite table functions: {@code json_each},
 * {@code jsonb_each} and their {@code _text} forms (columns {@code key}, {@code value}), {@code
 * json(b)_array_elements(_text)} (column {@code value}) and {@code json(b)_object_keys} (a column
 * named after the function). {@link CatalogSchema#registerFunctions} registers each public static
 * method under its name; Calcite calls it by reflection once while planning (with the constant
 * argument, or null for any other) for the row type, and again in the generated code, on the
 * query's thread, for the rows. The functions are strict (a NULL argument gives no rows); an untyped
 * constant is read as the function's json or jsonb. A json argument keeps its members' texts as
 * written and its duplicate keys; a jsonb one answers in jsonb's key order. A value of the wrong
 * kind is 22023 with PostgreSQL's message.
 */
public final class JsonTableFunctions {
    private JsonTableFunctions() {}

    public static ScannableTable json_each(Object j) {
        return jsonObject(j, "json_each", TypeKind.JSON);
    }

    public static ScannableTable json_each_text(Object j) {
        return jsonObject(j, "json_each_text", TypeKind.TEXT);
    }

    public static ScannableTable jsonb_each(Object j) {
        return jsonbObject(j, "jsonb_each", TypeKind.JSONB);
    }

    public static ScannableTable jsonb_each_text(Object j) {
        return jsonbObject(j, "jsonb_each_text", TypeKind.TEXT);
    }

    public static ScannableTable json_array_elements(Object j) {
        return jsonArray(j, "json_array_elements", TypeKind.JSON);
    }

    public static ScannableTable json_array_elements_text(Object j) {
        return jsonArray(j, "json_array_elements_text", TypeKind.TEXT);
    }

    public static ScannableTable jsonb_array_elements(Object j) {
        return jsonbArray(j, TypeKind.JSONB);
    }

    public static ScannableTable jsonb_array_elements_text(Object j) {
        return jsonbArray(j, TypeKind.TEXT);
    }

    public static ScannableTable json_object_keys(Object j) {
        String name = "json_object_keys";
        List<Object[]> rows = new ArrayList<>();
        List<String[]> members = jsonMembers(j);
        if (j != null && (members == null || isArray(j))) {
            throw wrongKind("cannot call " + name + " on " + (members == null ? "a scalar" : "an array"));
        }
        if (members != null) {
            members.forEach(m -> rows.add(new Object[] {m[0]}));
        }
        return JsonRowsTable.keys(name, rows);
    }

    public static ScannableTable jsonb_object_keys(Object j) {
        String name = "jsonb_object_keys";
        List<Object[]> rows = new ArrayList<>();
        JsonNode n = jsonbTree(j);
        if (n != null) {
            if (!n.isObject()) {
                throw wrongKind("cannot call " + name + " on " + (n.isArray() ? "an array" : "a scalar"));
            }
            n.fieldNames().forEachRemaining(k -> rows.add(new Object[] {k}));
        }
        return JsonRowsTable.keys(name, rows);
    }

    private static ScannableTable jsonObject(Object j, String name, TypeKind value) {
        List<Object[]> rows = new ArrayList<>();
        List<String[]> members = jsonMembers(j);
        if (j != null && members == null) {
            throw wrongKind("cannot deconstruct a scalar");
        }
        if (members != null) {
            if (isArray(j)) {
                throw wrongKind("cannot deconstruct an array as an object");
            }
            for (String[] m : members) {
                rows.add(new Object[] {m[0], jsonValue(m[1], value)});
            }
        }
        return JsonRowsTable.pairs(value, rows);
    }

    private static ScannableTable jsonbObject(Object j, String name, TypeKind value) {
        List<Object[]> rows = new ArrayList<>();
        JsonNode n = jsonbTree(j);
        if (n != null) {
            if (!n.isObject()) {
                throw wrongKind("cannot call " + name + " on a non-object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                rows.add(new Object[] {f.getKey(), jsonbValue(f.getValue(), value)});
            }
        }
        return JsonRowsTable.pairs(value, rows);
    }

    private static ScannableTable jsonArray(Object j, String name, TypeKind value) {
        List<Object[]> rows = new ArrayList<>();
        List<String[]> members = jsonMembers(j);
        if (j != null && (members == null || !isArray(j))) {
            throw wrongKind("cannot call " + name + " on " + (members == null ? "a scalar" : "a non-array"));
        }
        if (members != null) {
            for (String[] m : members) {
                rows.add(new Object[] {jsonValue(m[1], value)});
            }
        }
        return JsonRowsTable.values(value, rows);
    }

    private static ScannableTable jsonbArray(Object j, TypeKind value) {
        List<Object[]> rows = new ArrayList<>();
        JsonNode n = jsonbTree(j);
        if (n != null) {
            if (!n.isArray()) {
                throw wrongKind("cannot extract elements from " + (n.isObject() ? "an object" : "a scalar"));
            }
            n.forEach(e -> rows.add(new Object[] {jsonbValue(e, value)}));
        }
        return JsonRowsTable.values(value, rows);
    }

    /** A json member's text as a column of {@code kind}: json verbatim, or text with strings unquoted and null NULL. */
    private static Object jsonValue(String text, TypeKind kind) {
        if (kind == TypeKind.JSON) {
            return new PgJson(text);
        }
        if (text.startsWith("\"")) {
            return PgJsonText.tree(text).textValue();
        }
        return text.equals("null") ? null : text;
    }

    private static Object jsonbValue(JsonNode n, TypeKind kind) {
        if (kind == TypeKind.JSONB) {
            return PgJsonText.jsonb(n);
        }
        if (n.isNull()) {
            return null;
        }
        return n.isTextual() ? n.textValue() : PgJsonText.normalize(n);
    }

    /** The json text of argument {@code j}, null for NULL; an untyped constant is validated as json. */
    private static String jsonText(Object j) {
        if (j == null) {
            return null;
        }
        if (j instanceof PgJson json) {
            return json.text();
        }
        if (j instanceof PgJsonb b) {
            return b.text();
        }
        String text = j instanceof NlsString nls ? nls.getValue() : j.toString();
        return PgJsonText.json(text).text();
    }

    private static List<String[]> jsonMembers(Object j) {
        String text = jsonText(j);
        return text == null ? null : PgJsonText.topLevel(text);
    }

    private static boolean isArray(Object j) {
        return jsonText(j).stripLeading().startsWith("[");
    }

    /** The tree of argument {@code j} read as jsonb (its objects in jsonb's key order), null for NULL. */
    private static JsonNode jsonbTree(Object j) {
        String text = jsonText(j);
        if (text == null) {
            return null;
        }
        return PgJsonText.tree(
                j instanceof PgJsonb ? text : PgJsonText.jsonb(text).text());
    }

    private static TributaryException wrongKind(String message) {
        return new TributaryException(SqlState.INVALID_PARAMETER_VALUE, message);
    }
}
