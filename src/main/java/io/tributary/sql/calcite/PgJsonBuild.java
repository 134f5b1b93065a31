package io.tributary.sql.calcite;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.PgJson;
import io.tributary.common.types.PgJsonText;
import io.tributary.common.types.PgJsonb;
import io.tributary.common.types.PgTextFormat;

/**
 * The bodies of PostgreSQL's variadic json and jsonb build functions ({@link JsonBuildFunction}):
 * generated code calls them with the SQL arguments boxed into an array, on the thread evaluating the
 * expression. Not registered as schema functions (an array parameter is no SQL signature).
 */
public final class PgJsonBuild {
    private PgJsonBuild() {}

    /** {@code jsonb_build_object(k1, v1, ...)}; {@code args} alternate keys and values. */
    public static PgJsonb jsonb_build_object(Object[] args) {
        ObjectNode o = PgJsonFunctions.NODES.objectNode();
        for (int i = 0; i < args.length; i += 2) {
            o.set(key(args[i], i), PgJsonFunctions.node(args[i + 1]));
        }
        return PgJsonText.jsonb(o);
    }

    /** {@code jsonb_build_array(a, ...)}. */
    public static PgJsonb jsonb_build_array(Object[] args) {
        ArrayNode a = PgJsonFunctions.NODES.arrayNode();
        for (Object arg : args) {
            a.add(PgJsonFunctions.node(arg));
        }
        return PgJsonText.jsonb(a);
    }

    /** {@code json_build_object}'s text: {@code {"k" : v, "k2" : v2}}, keys in argument order. */
    public static PgJson json_build_object(Object[] args) {
        StringBuilder out = new StringBuilder("{");
        for (int i = 0; i < args.length; i += 2) {
            if (i > 0) {
                out.append(", ");
            }
            PgJsonText.quote(key(args[i], i), out);
            out.append(" : ").append(PgJsonFunctions.jsonText(args[i + 1]));
        }
        return new PgJson(out.append('}').toString());
    }

    /** {@code json_build_array}'s text: {@code [a, b]}. */
    public static PgJson json_build_array(Object[] args) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < args.length; i++) {
            out.append(i > 0 ? ", " : "").append(PgJsonFunctions.jsonText(args[i]));
        }
        return new PgJson(out.append(']').toString());
    }

    /**
     * {@code row_to_json}'s text of a row: {@code {"k":v,"k2":v2}}, keys (the row's column names)
     * in argument order, no blanks, a float as PostgreSQL's float text ({@code 1e+20}) where jsonb
     * would write all its digits; {@code args} alternate names and values.
     */
    public static PgJson pg_row_to_json(Object[] args) {
        StringBuilder out = new StringBuilder("{");
        for (int i = 0; i < args.length; i += 2) {
            if (i > 0) {
                out.append(',');
            }
            PgJsonText.quote(key(args[i], i), out);
            out.append(':');
            Object value = args[i + 1];
            if (value instanceof Double || value instanceof Float) {
                String text = value instanceof Double d
                        ? PgTextFormat.formatDouble(d)
                        : PgTextFormat.formatFloat((Float) value);
                boolean finite = Double.isFinite(((Number) value).doubleValue());
                out.append(finite ? text : '"' + text + '"');
            } else {
                out.append(PgJsonFunctions.jsonText(value));
            }
        }
        return new PgJson(out.append('}').toString());
    }

    private static String key(Object k, int position) {
        if (k == null) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, "argument " + (position + 1) + ": key must not be null");
        }
        return keyText(k);
    }

    /** A non-NULL key's text: a boolean as {@code true}/{@code false}, anything else as its string. */
    static String keyText(Object k) {
        return k instanceof Boolean b ? (b ? "true" : "false") : k.toString();
    }
}
