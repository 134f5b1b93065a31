package io.tributary.sql.calcite;

import java.util.List;

/**
 * An array as a sort key in PostgreSQL's order ({@code array_cmp}): element by element, a NULL
 * element after every non-null one, then the shorter array first when one is a prefix of the
 * other. Elements compare by their own {@link Comparable} order, as the same values do as sort keys
 * of their own type. {@link ArrayOrderPlans} sorts by {@link #pg_array_order} in an array's place;
 * immutable, and holds the array it was made from (no copy).
 */
public final class PgArrayOrder implements Comparable<PgArrayOrder> {
    private final List<?> elements;

    private PgArrayOrder(List<?> elements) {
        this.elements = elements;
    }

    /** The sort key of {@code array}; null for a NULL array, which then sorts as any NULL key. */
    public static PgArrayOrder pg_array_order(Object array) {
        return array == null ? null : new PgArrayOrder((List<?>) array);
    }

    @Override
    public int compareTo(PgArrayOrder other) {
        return compare(elements, other.elements);
    }

    /**
     * PostgreSQL's order of arrays {@code a} and {@code b} (neither null): negative, zero or
     * positive as {@code a} sorts before, with or after {@code b}. Numeric elements compare by
     * value, so arrays that differ only in their elements' scales are equal.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(List<?> a, List<?> b) {
        int shared = Math.min(a.size(), b.size());
        for (int i = 0; i < shared; i++) {
            Object x = a.get(i);
            Object y = b.get(i);
            if (x == null || y == null) {
                if (x != y) {
                    return x == null ? 1 : -1;
                }
                continue;
            }
            int c = x instanceof List<?> xs && y instanceof List<?> ys
                    ? compare(xs, ys)
                    : ((Comparable) x).compareTo(y);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PgArrayOrder other && compareTo(other) == 0;
    }

    @Override
    public int hashCode() {
        return elements.size();
    }
}
