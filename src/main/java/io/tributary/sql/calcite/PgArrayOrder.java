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
    @SuppressWarnings({"unchecked", "rawtypes"})
    public int compareTo(PgArrayOrder other) {
        int shared = Math.min(elements.size(), other.elements.size());
        for (int i = 0; i < shared; i++) {
            Object a = elements.get(i);
            Object b = other.elements.get(i);
            if (a == null || b == null) {
                if (a != b) {
                    return a == null ? 1 : -1;
                }
                continue;
            }
            int c = a instanceof List<?> && b instanceof List<?>
                    ? new PgArrayOrder((List<?>) a).compareTo(new PgArrayOrder((List<?>) b))
                    : ((Comparable) a).compareTo(b);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(elements.size(), other.elements.size());
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
