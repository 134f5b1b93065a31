package io.tributary.sql.calcite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgJson;
import io.tributary.common.types.PgJsonText;
import io.tributary.common.types.PgJsonb;
import io.tributary.common.types.PgTextFormat;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL functions and operators over PostgreSQL's json and jsonb, registered by {@link
 * CatalogSchema}; Calcite calls the public static methods by reflection from generated code, on the
 * thread evaluating the expression. {@link PgOperatorText} writes the operators ({@code ->},
 * {@code ->>}, {@code #>}, {@code #>>}, {@code @>}, {@code <@}) as calls of the {@code pg_jsonb_*}
 * ones, and {@link JsonCasts} casts to json and jsonb as {@code pg_json_in}/{@code pg_jsonb_in}.
 * Parameters are {@code Object} because Calcite types a Java parameter of any other class as
 * {@code OTHER}, which its casting rules cannot match; a json or jsonb argument is its record, an
 * untyped constant a string (read as json, as PostgreSQL reads an unknown). Results of the
 * operators are jsonb whatever the input, a known deviation for json input.
 */
public final class PgJsonFunctions {
    static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private PgJsonFunctions() {}

    /** {@code value::json}: text read as json, jsonb printed as json. */
    public static PgJson pg_json_in(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof PgJson j) {
            return j;
        }
        if (value instanceof PgJsonb b) {
            return new PgJson(b.text());
        }
        return PgJsonText.json(text(value, "json"));
    }

    /** {@code value::jsonb}: text or json read as jsonb. */
    public static PgJsonb pg_jsonb_in(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof PgJsonb b) {
            return b;
        }
        return PgJsonText.jsonb(value instanceof PgJson j ? j.text() : text(value, "jsonb"));
    }

    private static String text(Object value, String type) {
        if (value instanceof String s) {
            return s;
        }
        throw new TributaryException(SqlState.CANNOT_COERCE, "cannot cast type " + sqlName(value) + " to " + type);
    }

    /** The text of a json or jsonb value, as a cast to text gives it ({@link JsonPlans}). */
    public static String pg_json_out(Object j) {
        return j == null ? null : j.toString();
    }

    /** {@code j -> key} (text key or integer index): the member as jsonb, NULL when absent. */
    public static PgJsonb pg_op_jsonb_get(Object j, Object key) {
        JsonNode n = member(tree(j), key);
        return n == null ? null : PgJsonText.jsonb(n);
    }

    /** {@code j ->> key}: the member as text (strings unquoted), NULL when absent or JSON null. */
    public static String pg_op_jsonb_get_text(Object j, Object key) {
        return asText(member(tree(j), key));
    }

    /** {@code j #> path} with {@code path} a text array constant such as {@code '{a,0,b}'}. */
    public static PgJsonb pg_op_jsonb_path(Object j, String path) {
        JsonNode n = path(tree(j), path);
        return n == null ? null : PgJsonText.jsonb(n);
    }

    /** {@code j #>> path}: as {@link #pg_op_jsonb_path}, as text. */
    public static String pg_op_jsonb_path_text(Object j, String path) {
        return asText(path(tree(j), path));
    }

    /** {@code a @> b}: whether {@code a} contains {@code b}, as jsonb containment defines it, or as arrays' ({@link PgArrayContainment}) when an operand is an array. */
    public static Boolean pg_op_jsonb_contains(Object a, Object b) {
        if (PgArrayContainment.isArray(a) || PgArrayContainment.isArray(b)) {
            return PgArrayContainment.contains(a, b);
        }
        JsonNode x = tree(a);
        JsonNode y = tree(b);
        return x == null || y == null ? null : JsonContainment.contains(x, y, true);
    }

    /** {@code a <@ b}: whether {@code b} contains {@code a}. */
    public static Boolean pg_op_jsonb_contained(Object a, Object b) {
        return pg_op_jsonb_contains(b, a);
    }

    public static String jsonb_typeof(Object j) {
        JsonNode n = tree(j);
        return n == null ? null : typeOf(n);
    }

    public static String json_typeof(Object j) {
        return jsonb_typeof(j);
    }

    public static Integer jsonb_array_length(Object j) {
        JsonNode n = tree(j);
        if (n == null) {
            return null;
        }
        if (!n.isArray()) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    n.isObject() ? "cannot get array length of a non-array" : "cannot get array length of a scalar");
        }
        return n.size();
    }

    public static Integer json_array_length(Object j) {
        return jsonb_array_length(j);
    }

    /** {@code jsonb_strip_nulls(j)}: {@code j} without its object fields whose value is null, at any depth. */
    public static PgJsonb jsonb_strip_nulls(Object j) {
        JsonNode n = tree(j);
        return n == null ? null : PgJsonText.jsonb(stripNulls(n));
    }

    /** {@code n} without null-valued object fields; array elements stay, null or not, as PostgreSQL keeps them. */
    private static JsonNode stripNulls(JsonNode n) {
        if (n.isObject()) {
            com.fasterxml.jackson.databind.node.ObjectNode out = NODES.objectNode();
            n.fields().forEachRemaining(f -> {
                if (!f.getValue().isNull()) {
                    out.set(f.getKey(), stripNulls(f.getValue()));
                }
            });
            return out;
        }
        if (n.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode out = NODES.arrayNode();
            n.forEach(e -> out.add(stripNulls(e)));
            return out;
        }
        return n;
    }

    /** {@code jsonb_pretty(j)}: PostgreSQL's indented form, four spaces a level. */
    public static String jsonb_pretty(Object j) {
        JsonNode n = tree(j);
        if (n == null) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        JsonPretty.write(n, 0, out);
        return out.toString();
    }

    /**
     * An aggregated value as JSON text ({@link JsonAggregates}): json kept verbatim, an array as
     * {@link #jsonText} writes it ({@code [1,2]}), NULL as {@code null}.
     */
    public static String pg_json_element(Object v) {
        return jsonText(v);
    }

    /** An aggregated key as a quoted JSON string ({@link JsonAggregates}); 22023 for NULL, as PostgreSQL. */
    public static String pg_json_key(Object k) {
        if (k == null) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "field name must not be null");
        }
        StringBuilder out = new StringBuilder();
        PgJsonText.quote(PgJsonBuild.keyText(k), out);
        return out.toString();
    }

    /**
     * A timestamp's or timestamptz's text as PostgreSQL's JSON writes it (ISO 8601): {@code
     * 2024-01-02T10:00:00.5}, an offset with its minutes ({@code +00:00}), {@code BC} kept; {@code
     * infinity} as it is. Called on a whole row's timestamp fields ({@link WholeRowReferences}).
     */
    public static String pg_json_timestamp(String text) {
        if (text == null) {
            return null;
        }
        int blank = text.indexOf(' ');
        if (blank < 0) {
            return text;
        }
        StringBuilder iso =
                new StringBuilder(text.length() + 3).append(text, 0, blank).append('T');
        int era = text.endsWith(" BC") ? text.length() - 3 : text.length();
        String time = text.substring(blank + 1, era);
        iso.append(time);
        int sign = Math.max(time.lastIndexOf('+'), time.lastIndexOf('-'));
        if (sign >= 0 && time.indexOf(':', sign) < 0) {
            iso.append(":00"); // +05 is +05:00 in ISO 8601's form
        }
        return iso.append(text, era, text.length()).toString();
    }

    /**
     * An interval as PostgreSQL's JSON writes it, its text ({@code 1 day 02:00:00}): {@code iv} is
     * PostgreSQL's interval ({@link PgIntervals}) or Calcite's, a count of months (Integer) or of
     * milliseconds (Long), whose days stand apart from its time when {@code countsDays}, as its
     * result column prints. Called by generated code where {@link JsonArguments} put it.
     */
    public static String pg_json_interval(Object iv, boolean countsDays) {
        if (iv == null) {
            return null;
        }
        if (iv instanceof Interval pg) {
            return PgTextFormat.formatInterval(pg);
        }
        if (iv instanceof Integer months) {
            return PgTextFormat.formatInterval(new Interval(months, 0, 0));
        }
        long millis = ((Number) iv).longValue();
        return PgTextFormat.formatInterval(
                countsDays
                        ? new Interval(0, (int) (millis / MILLIS_PER_DAY), millis % MILLIS_PER_DAY * 1000L)
                        : new Interval(0, 0, millis * 1000L));
    }

    /**
     * An array of dates, times or timestamps ({@code kind} {@code date}, {@code time} or {@code
     * timestamp}: the values generated code holds, days since 1970, milliseconds of the day or
     * microseconds since 1970; nested lists for more dimensions) as the json array {@code to_json}
     * writes: each element its text, a timestamp's in ISO 8601 ({@link #pg_json_timestamp}), NULL
     * elements {@code null}, separated by a bare comma. Called by generated code where {@link
     * JsonArguments} put it.
     */
    public static PgJson pg_json_date_times(Object array, String kind) {
        if (array == null || kind == null) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        writeDateTimes(array, kind, out);
        return new PgJson(out.toString());
    }

    /** {@code v}, a list or an element, written as {@link #jsonText} writes an array. */
    private static void writeDateTimes(Object v, String kind, StringBuilder out) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof List<?> array) {
            out.append('[');
            for (int i = 0; i < array.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                writeDateTimes(array.get(i), kind, out);
            }
            out.append(']');
        } else {
            long n = ((Number) v).longValue();
            String text = switch (kind) {
                case "date" -> PgTextFormat.formatDate((int) n);
                case "time" -> PgTextFormat.formatTime(n * 1000L);
                default -> pg_json_timestamp(PgTextFormat.formatTimestamp(n));
            };
            PgJsonText.quote(text, out);
        }
    }

    /** {@code to_jsonb(v)}: a SQL value as jsonb (numbers as numbers, booleans, text as strings). */
    public static PgJsonb to_jsonb(Object v) {
        return v == null ? null : PgJsonText.jsonb(node(v));
    }

    /** {@code to_json(v)}: as {@link #to_jsonb}, as json. */
    public static PgJson to_json(Object v) {
        return v == null ? null : new PgJson(jsonText(v));
    }

    /**
     * The json text of a SQL value, as PostgreSQL's {@code to_json} writes it: json keeps its text, an
     * array is its elements' texts between brackets, separated by a bare comma (jsonb's text puts a
     * space after it), anything else the text of its {@link #node}.
     */
    static String jsonText(Object v) {
        if (v instanceof PgJson j) {
            return j.text();
        }
        if (v instanceof java.util.List<?> array) {
            StringBuilder text = new StringBuilder().append('[');
            for (Object element : array) {
                if (text.length() > 1) {
                    text.append(',');
                }
                text.append(jsonText(element));
            }
            return text.append(']').toString();
        }
        return PgJsonText.normalize(node(v));
    }

    /** A SQL value as a JSON tree: json and jsonb as their trees, numbers, booleans, text as strings. */
    static JsonNode node(Object v) {
        if (v == null) {
            return NODES.nullNode();
        }
        if (v instanceof PgJson || v instanceof PgJsonb) {
            return PgJsonText.tree(v.toString());
        }
        if (v instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (v instanceof BigDecimal d) {
            return NODES.numberNode(d);
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short) {
            return NODES.numberNode(((Number) v).longValue());
        }
        if (v instanceof java.util.List<?> array) {
            // a SQL array is a JSON array of its elements, as PostgreSQL's to_json writes it
            com.fasterxml.jackson.databind.node.ArrayNode elements = NODES.arrayNode(array.size());
            for (Object element : array) {
                elements.add(node(element));
            }
            return elements;
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            String text = PgTextFormat.format(DataType.DOUBLE, d);
            return Double.isFinite(d) ? NODES.numberNode(new BigDecimal(text)) : NODES.textNode(text);
        }
        return NODES.textNode(v.toString());
    }

    /** The tree of a json or jsonb argument, or of an untyped constant; null for NULL. */
    private static JsonNode tree(Object j) {
        return j == null ? null : PgJsonText.tree(j.toString());
    }

    private static JsonNode member(JsonNode n, Object key) {
        if (n == null || key == null) {
            return null;
        }
        if (key instanceof Number index) {
            if (!n.isArray()) {
                return null;
            }
            int i = index.intValue();
            int at = i < 0 ? n.size() + i : i;
            return at >= 0 && at < n.size() ? n.get(at) : null;
        }
        return n.isObject() ? n.get(key.toString()) : null;
    }

    private static JsonNode path(JsonNode n, String path) {
        if (n == null || path == null) {
            return null;
        }
        for (String step : pathSteps(path)) {
            if (n == null || step == null) {
                return null;
            }
            if (n.isArray()) {
                Integer index = index(step);
                n = index == null ? null : member(n, index);
            } else {
                n = n.isObject() ? n.get(step) : null;
            }
        }
        return n;
    }

    private static Integer index(String step) {
        try {
            return Integer.valueOf(step.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String asText(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        return n.isTextual() ? n.textValue() : PgJsonText.normalize(n);
    }

    static String typeOf(JsonNode n) {
        return switch (n.getNodeType()) {
            case OBJECT -> "object";
            case ARRAY -> "array";
            case STRING -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "boolean";
            default -> "null";
        };
    }

    private static String sqlName(Object value) {
        if (value instanceof Integer) {
            return "integer";
        }
        if (value instanceof Long) {
            return "bigint";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        return value instanceof BigDecimal ? "numeric" : value instanceof Double ? "double precision" : "this type";
    }

    /**
     * The steps of a text array constant such as {@code {a,"b c",0}}: braces around, elements
     * split at commas outside double quotes, blanks around unquoted ones dropped.
     */
    static List<String> pathSteps(String path) {
        String s = path.trim();
        if (s.length() < 2 || s.charAt(0) != '{' || s.charAt(s.length() - 1) != '}') {
            throw new TributaryException(
                    SqlState.INVALID_TEXT_REPRESENTATION, "malformed array literal: \"" + path + "\"");
        }
        List<String> steps = new ArrayList<>();
        StringBuilder step = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (int i = 1; i < s.length() - 1; i++) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
                any = true;
            } else if (c == '\\' && i + 1 < s.length() - 1) {
                step.append(s.charAt(++i));
            } else if (c == ',' && !quoted) {
                steps.add(any ? step.toString() : step.toString().trim());
                step.setLength(0);
                any = false;
            } else {
                step.append(c);
            }
        }
        if (steps.size() > 0 || !step.toString().isBlank() || any) {
            steps.add(any ? step.toString() : step.toString().trim());
        }
        return steps;
    }
}
