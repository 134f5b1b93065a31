package io.tributary.sql.calcite;

import java.util.List;

/**
 * PostgreSQL's functions on the bounds of an array, for the one-dimensional arrays Tributary has
 * (whose lower bound is always 1): {@code array_lower} and the two-argument
 * {@code array_length} (named {@code pg_array_length}, as Calcite's BigQuery {@code array_length}
 * takes one argument; {@link PgArrayCalls} renames the calls); {@link PgCatalogCalls} gives
 * {@code array_upper}. As in PostgreSQL, an empty array, a
 * dimension it does not have and a NULL argument give NULL. Called by reflection from generated
 * code, on any thread.
 */
public final class PgArrayFunctions {
    private PgArrayFunctions() {}

    /** {@code array_lower(array, dim)}: 1 for the first dimension of a non-empty array. */
    public static Integer array_lower(List<?> array, Integer dim) {
        return hasDimension(array, dim) ? 1 : null;
    }

    /** {@code array_length(array, dim)}: the number of elements for the first dimension of a non-empty array. */
    public static Integer pg_array_length(List<?> array, Integer dim) {
        return hasDimension(array, dim) ? array.size() : null;
    }

    private static boolean hasDimension(List<?> array, Integer dim) {
        return array != null && dim != null && dim == 1 && !array.isEmpty();
    }
}
