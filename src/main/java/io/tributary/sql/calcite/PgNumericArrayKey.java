package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A numeric array that equals and hashes as PostgreSQL's: its elements compare by value whatever
 * their scales ({@code {2}} equals {@code {2.0}}), as numeric's equality and hashing do, also inside
 * arrays. Calcite's code compares and hashes an array (a list) by {@link List#equals} and {@link
 * List#hashCode}, which hold {@code 2} and {@code 2.0} apart ({@link BigDecimal#equals}); this list
 * is the same array with scale-blind {@link #equals} and {@link #hashCode}. {@link PgScalarCalls}
 * compares numeric arrays as these, and {@link NumericArrayKeyPlans} groups and sets ad-hoc
 * queries' rows by them. Immutable; a view of the array it was made from (no copy), so a group of
 * them gives back the first array it met, elements with their scales, as PostgreSQL's does.
 */
public final class PgNumericArrayKey extends AbstractList<Object> implements RandomAccess, Comparable<List<?>> {
    private final List<?> elements;

    private PgNumericArrayKey(List<?> elements) {
        this.elements = elements;
    }

    /** {@code array} as such a key; null for a NULL array. */
    public static List<?> pg_numeric_array_key(List<?> array) {
        return array == null || array instanceof PgNumericArrayKey ? array : new PgNumericArrayKey(array);
    }

    @Override
    public Object get(int index) {
        return elements.get(index);
    }

    @Override
    public int size() {
        return elements.size();
    }

    /** PostgreSQL's array order ({@link PgArrayOrder#compare}), for a merge join's sorted keys. */
    @Override
    public int compareTo(List<?> other) {
        return PgArrayOrder.compare(elements, other);
    }

    /** Equal to a list of as many elements, each null where this one's is, else of the same value. */
    @Override
    public boolean equals(Object o) {
        return o instanceof List<?> other && other.size() == size() && PgArrayOrder.compare(elements, other) == 0;
    }

    /** Equal numbers have equal doubles whatever their scales, so equal keys hash alike. */
    @Override
    public int hashCode() {
        int h = elements.size();
        for (int i = 0; i < elements.size(); i++) {
            Object e = elements.get(i);
            h = 31 * h + (e instanceof Number n ? Double.hashCode(n.doubleValue()) : 0);
        }
        return h;
    }
}
