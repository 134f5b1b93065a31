package io.tributary.sql.calcite;

import java.util.List;

/**
 * PostgreSQL's functions on the bounds of an array, whose lower bounds are always 1 here (a nested
 * list is a dimension, as {@code ARRAY[[1, 2], [3, 4]]} is): {@code array_lower}, {@code
 * array_upper}, {@code array_ndims} and the two-argument {@code array_length} (named {@code
 * pg_array_length}, as Calcite's BigQuery {@code array_length} takes one argument; {@link
 * PgArrayCalls} renames the calls). As in PostgreSQL, an empty array, a dimension it does not have
 * and a NULL argument give NULL. Plain functions, so that views take them as queries do. And {@code array_to_string} (named
 * {@code pg_array_to_string}: Calcite's takes text elements only and fails at run time on others).
 * And {@code array::text} ({@code pg_array_text}, which {@link PgValidator} puts under such a cast).
 * Called by reflection from generated code, on any thread.
 */
public final class PgArrayFunctions {
    private PgArrayFunctions() {}

    /** {@code array_lower(array, dim)}: 1 for a dimension the array has. */
    public static Integer array_lower(List<?> array, Integer dim) {
        return length(array, dim) == null ? null : 1;
    }

    /** {@code array_upper(array, dim)}: the number of elements along a dimension the array has. */
    public static Integer array_upper(List<?> array, Integer dim) {
        return length(array, dim);
    }

    /** {@code array_length(array, dim)}: the number of elements along a dimension the array has. */
    public static Integer pg_array_length(List<?> array, Integer dim) {
        return length(array, dim);
    }

    /** {@code array_ndims(array)}: the number of dimensions of a non-empty array. */
    public static Integer array_ndims(List<?> array) {
        if (array == null || array.isEmpty()) {
            return null;
        }
        int dims = 1;
        for (Object first = array.get(0); first instanceof List<?> inner && !inner.isEmpty(); first = inner.get(0)) {
            dims++;
        }
        return dims;
    }

    /** {@code array_to_string(array, delimiter)}: the elements' text joined by the delimiter, NULLs left out. */
    public static String pg_array_to_string(List<?> array, String delimiter) {
        return pg_array_to_string(array, delimiter, null);
    }

    /**
     * {@code array_to_string(array, delimiter, null_string)}: NULL elements as {@code nullString}, or
     * left out when it is NULL. Elements print in their type's output form, as PostgreSQL's array
     * output does ({@code t} for true, a numeric's scale kept, PostgreSQL's float text); nested
     * arrays are flattened. {@link PgScalarCalls} refuses element types whose Java values here would
     * not tell their type (dates, times, timestamps, intervals).
     */
    public static String pg_array_to_string(List<?> array, String delimiter, String nullString) {
        if (array == null || delimiter == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        boolean[] first = {true};
        append(sb, array, delimiter, nullString, first);
        return sb.toString();
    }

    /**
     * {@code array::text}: the array in PostgreSQL's text form, {@code {1,NULL,"a b"}}, each element
     * printed as {@link #pg_array_to_string} prints it and quoted as {@code array_out} quotes it; a
     * NULL element as {@code NULL}. {@link PgValidator} refuses the element types {@link
     * PgScalarCalls} refuses for {@code array_to_string}.
     */
    public static String pg_array_text(List<?> array) {
        if (array == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        appendText(sb, array);
        return sb.toString();
    }

    private static void appendText(StringBuilder sb, List<?> array) {
        sb.append('{');
        for (int i = 0; i < array.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            Object e = array.get(i);
            if (e == null) {
                sb.append("NULL");
            } else if (e instanceof List<?> inner) {
                appendText(sb, inner);
            } else {
                io.tributary.common.types.PgArrayLiteral.appendElement(sb, elementText(e));
            }
        }
        sb.append('}');
    }

    private static void append(StringBuilder sb, List<?> array, String delimiter, String nullString, boolean[] first) {
        for (Object e : array) {
            if (e instanceof List<?> inner) {
                append(sb, inner, delimiter, nullString, first);
                continue;
            }
            if (e == null && nullString == null) {
                continue;
            }
            if (!first[0]) {
                sb.append(delimiter);
            }
            first[0] = false;
            sb.append(e == null ? nullString : elementText(e));
        }
    }

    private static String elementText(Object e) {
        if (e instanceof Boolean b) {
            return b ? "t" : "f";
        }
        if (e instanceof java.math.BigDecimal d) {
            return PgScalarFunctions.numericText(d);
        }
        if (e instanceof Double d) {
            return PgScalarFunctions.float8Text(d);
        }
        if (e instanceof Float f) {
            return PgScalarFunctions.float4Text(f);
        }
        if (e instanceof org.apache.calcite.avatica.util.ByteString bytes) {
            return "\\x" + bytes.toString(16);
        }
        return e.toString();
    }

    /** The number of elements along dimension {@code dim} (1-based), null when the array has no such dimension. */
    private static Integer length(List<?> array, Integer dim) {
        if (array == null || dim == null || dim < 1 || array.isEmpty()) {
            return null;
        }
        List<?> level = array;
        for (int d = 1; d < dim; d++) {
            if (!(level.get(0) instanceof List<?> inner) || inner.isEmpty()) {
                return null;
            }
            level = inner;
        }
        return level.size();
    }
}
