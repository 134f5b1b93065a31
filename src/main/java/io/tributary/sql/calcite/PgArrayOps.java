package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;

/**
 * The runtime of PostgreSQL's array functions ({@link ArrayFunctions}) over the one-dimensional
 * arrays Calcite's generated code holds as lists: {@code array_append}, {@code array_prepend},
 * {@code array_cat}, {@code array_remove}, {@code array_replace}, {@code array_position}, {@code array_fill},
 * {@code array_dims} and the slice {@code a[lo:hi]}. Elements compare as PostgreSQL's {@code IS NOT DISTINCT
 * FROM} does (a NULL element finds NULL). Called by reflection from generated code, on any thread.
 */
public final class PgArrayOps {
    private PgArrayOps() {}

    /**
     * PostgreSQL's slice {@code array[lower:upper]} of a one-dimensional array: the elements at
     * positions {@code lower} to {@code upper} (from 1), bounds outside the array cut to it, an
     * empty array when no position is in both; NULL when the array or a bound is.
     */
    public static List<Object> pg_array_slice(List<?> array, Object lower, Object upper) {
        if (array == null || lower == null || upper == null) {
            return null;
        }
        long from = Math.max(((Number) lower).longValue(), 1);
        long to = Math.min(((Number) upper).longValue(), array.size());
        return from > to ? new ArrayList<>() : new ArrayList<>(array.subList((int) from - 1, (int) to));
    }

    /** {@code array_append(array, element)}: a NULL array is an empty one, so the answer is never NULL. */
    public static List<Object> array_append(List<?> array, Object element) {
        List<Object> out = new ArrayList<>(array == null ? 1 : array.size() + 1);
        if (array != null) {
            out.addAll(array);
        }
        out.add(element);
        return out;
    }

    /** {@code array_prepend(element, array)}: a NULL array is an empty one. */
    public static List<Object> array_prepend(Object element, List<?> array) {
        List<Object> out = new ArrayList<>(array == null ? 1 : array.size() + 1);
        out.add(element);
        if (array != null) {
            out.addAll(array);
        }
        return out;
    }

    /**
     * The numbers of {@code array} as {@code to} (Long, BigDecimal, Float or Double), for an array
     * whose elements join a wider type's; NULL elements and a NULL array stay NULL.
     */
    public static List<Object> widened(List<?> array, Class<?> to) {
        if (array == null) {
            return null;
        }
        List<Object> out = new ArrayList<>(array.size());
        for (Object e : array) {
            out.add(e == null ? null : widened((Number) e, to));
        }
        return out;
    }

    private static Object widened(Number n, Class<?> to) {
        if (to == Long.class) {
            return n.longValue();
        }
        if (to == Integer.class) {
            return n.intValue();
        }
        if (to == Short.class) {
            return n.shortValue();
        }
        if (to == Float.class) {
            return n.floatValue();
        }
        if (to == Double.class) {
            return n.doubleValue();
        }
        return n instanceof java.math.BigDecimal d ? d : new java.math.BigDecimal(n.toString());
    }

    /**
     * {@code pg_numeric_array(array)}: the array as {@code numeric[]}; generated code has already
     * widened the elements of another number type ({@link #widened}), each keeping its own scale.
     */
    public static List<?> pg_numeric_array(List<?> array) {
        return array;
    }

    /** {@code array_cat(a, b)}: NULL only when both are; a NULL one adds nothing. */
    public static List<Object> array_cat(List<?> a, List<?> b) {
        if (a == null && b == null) {
            return null;
        }
        List<Object> out = new ArrayList<>((a == null ? 0 : a.size()) + (b == null ? 0 : b.size()));
        if (a != null) {
            out.addAll(a);
        }
        if (b != null) {
            out.addAll(b);
        }
        return out;
    }

    /** {@code array_remove(array, element)}: the array without the elements not distinct from {@code element}. */
    public static List<Object> array_remove(List<?> array, Object element) {
        if (array == null) {
            return null;
        }
        List<Object> out = new ArrayList<>(array.size());
        for (Object e : array) {
            if (!same(e, element)) {
                out.add(e);
            }
        }
        return out;
    }

    /** {@code array_replace(array, from, to)}: the elements not distinct from {@code from} become {@code to}. */
    public static List<Object> array_replace(List<?> array, Object from, Object to) {
        if (array == null) {
            return null;
        }
        List<Object> out = new ArrayList<>(array.size());
        for (Object e : array) {
            out.add(same(e, from) ? to : e);
        }
        return out;
    }

    /**
     * The empty array {@link ArrayFunctions#EMPTY_NAME} stands for; its argument, a NULL, only types
     * the call. One shared immutable list: the functions here copy an array argument, never change it.
     */
    public static List<Object> pg_empty_array(Object element) {
        return List.of();
    }

    /**
     * {@code array_fill(value, dimensions)}: {@code dimensions[1]} copies of {@code value}; a
     * negative length is 54000 and NULL dimensions 22004 and more than one dimension 0A000 (arrays here
     * have one).
     */
    public static List<Object> array_fill(Object value, List<?> dimensions) {
        if (dimensions == null || dimensions.contains(null)) {
            throw new io.tributary.common.TributaryException(
                    io.tributary.common.SqlState.NULL_VALUE_NOT_ALLOWED,
                    "dimension array or low bound array cannot be null");
        }
        if (dimensions.size() != 1) {
            throw io.tributary.common.TributaryException.notSupported("array_fill with other than one dimension");
        }
        int length = ((Number) dimensions.get(0)).intValue();
        if (length < 0) {
            // PostgreSQL reads a negative length as an array too large to hold
            throw new io.tributary.common.TributaryException(
                    io.tributary.common.SqlState.PROGRAM_LIMIT_EXCEEDED,
                    "array size exceeds the maximum allowed (134217727)");
        }
        List<Object> out = new ArrayList<>(Math.max(length, 0));
        for (int i = 0; i < length; i++) {
            out.add(value);
        }
        return out;
    }

    /** {@code array_dims(array)}: {@code [1:n]} per dimension ({@code [1:2][1:3]}), NULL for a NULL or empty array. */
    public static String array_dims(List<?> array) {
        if (array == null || array.isEmpty()) {
            return null;
        }
        StringBuilder dims = new StringBuilder();
        Object level = array;
        while (level instanceof List<?> list && !list.isEmpty()) {
            dims.append("[1:").append(list.size()).append(']');
            level = list.get(0);
        }
        return dims.toString();
    }

    /** {@code array_position(array, element)}: the 1-based index of the first element not distinct from it, else NULL. */
    public static Integer array_position(List<?> array, Object element) {
        if (array == null) {
            return null;
        }
        for (int i = 0; i < array.size(); i++) {
            if (same(array.get(i), element)) {
                return i + 1;
            }
        }
        return null;
    }

    /** PostgreSQL's {@code IS NOT DISTINCT FROM} of two elements: numbers by value, whatever their scale. */
    private static boolean same(Object a, Object b) {
        if (a instanceof java.math.BigDecimal x && b instanceof java.math.BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        return java.util.Objects.equals(a, b);
    }
}
