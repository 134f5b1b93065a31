package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import io.tributary.common.types.PgArrayLiteral;
import java.math.BigDecimal;
import java.util.List;

/**
 * PostgreSQL's array containment and overlap operators, {@code a @> b}, {@code a <@ b} and {@code
 * a && b}, over the lists Calcite's generated code holds arrays in. As in PostgreSQL, duplicates do
 * not matter, a NULL element equals nothing (so {@code ARRAY[NULL] @> ARRAY[NULL]} is false), and a
 * NULL array answers NULL; float NaN elements equal each other. A string operand is PostgreSQL's
 * array text ({@code tags @> '{a}'}): an ad-hoc query's reaches here as an array of the other
 * operand's type ({@link ArrayTextOperands}); one left as text compares with text or number
 * elements only. {@code @>} and {@code <@} reach here from {@link
 * PgJsonFunctions}, which owns those operator names, when an operand is an array; {@code &&} is
 * {@link #pg_op_array_overlap}, registered as a schema function. Stateless; any thread.
 */
public final class PgArrayContainment {
    private PgArrayContainment() {}

    /** Whether an operand of {@code @>} or {@code <@} is an array rather than a json value. */
    static boolean isArray(Object value) {
        return value instanceof List<?>;
    }

    /** {@code a @> b}: every element of {@code b} equals some element of {@code a}. */
    static Boolean contains(Object a, Object b) {
        if (a == null || b == null) {
            return null;
        }
        List<?> outer = elements(a);
        for (Object wanted : elements(b)) {
            if (!holds(outer, wanted)) {
                return false;
            }
        }
        return true;
    }

    /** {@code a && b}: some element of {@code a} equals some element of {@code b}. */
    public static Boolean pg_op_array_overlap(Object a, Object b) {
        if (a == null || b == null) {
            return null;
        }
        List<?> left = elements(a);
        for (Object e : elements(b)) {
            if (holds(left, e)) {
                return true;
            }
        }
        return false;
    }

    private static List<?> elements(Object operand) {
        if (operand instanceof List<?> list) {
            return list;
        }
        if (operand instanceof String text) {
            return PgArrayLiteral.elements(text);
        }
        throw TributaryException.notSupported("array operators @>, <@ and && on a value of type "
                + operand.getClass().getSimpleName() + "; compare two arrays");
    }

    private static boolean holds(List<?> array, Object wanted) {
        if (wanted == null) {
            return false;
        }
        for (Object e : array) {
            if (e != null && same(e, wanted)) {
                return true;
            }
        }
        return false;
    }

    /** Element equality across the classes generated code holds (a text element meets its array text). */
    private static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            if (isNaN(x) || isNaN(y)) {
                // PostgreSQL's float equality, which arrays use, holds NaN equal to NaN
                return isNaN(x) && isNaN(y);
            }
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
        }
        if (a instanceof Number x && b instanceof String s) {
            return numberEquals(x, s);
        }
        if (b instanceof Number y && a instanceof String s) {
            return numberEquals(y, s);
        }
        if (a instanceof String || b instanceof String) {
            if (a.getClass() != b.getClass()) {
                throw TributaryException.notSupported(
                        "array operators @>, <@ and && between a text array constant and an array of "
                                + (a instanceof String ? b : a).getClass().getSimpleName()
                                + "; write ARRAY[...] of its type");
            }
        }
        return a.equals(b);
    }

    private static boolean isNaN(Number n) {
        return (n instanceof Double d && d.isNaN()) || (n instanceof Float f && f.isNaN());
    }

    private static boolean numberEquals(Number n, String text) {
        if (isNaN(n) || text.strip().equalsIgnoreCase("NaN")) {
            return isNaN(n) && text.strip().equalsIgnoreCase("NaN");
        }
        try {
            return new BigDecimal(n.toString()).compareTo(new BigDecimal(text.strip())) == 0;
        } catch (NumberFormatException e) {
            throw new TributaryException(
                    io.tributary.common.SqlState.INVALID_TEXT_REPRESENTATION,
                    "invalid input syntax for type numeric: \"" + text + "\"");
        }
    }
}
