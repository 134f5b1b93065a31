package io.tributary.server.session;

import io.tributary.catalog.TableDef;
import java.util.Arrays;

/**
 * A row's primary-key values, compared by value (arrays and byte strings by content), so that an
 * UPDATE ... FROM or DELETE ... USING can tell a target row it already changed when the join
 * yields it again. Immutable.
 */
final class RowKey {
    private final Object[] values;
    private final int hash;

    private RowKey(Object[] values) {
        this.values = values;
        this.hash = Arrays.deepHashCode(values);
    }

    /** The key of {@code row}, a row of {@code table} in full (possibly followed by other values). */
    static RowKey of(TableDef table, Object[] row) {
        int[] key = table.primaryKey();
        Object[] values = new Object[key.length];
        for (int i = 0; i < key.length; i++) {
            values[i] = row[key[i]];
        }
        return new RowKey(values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowKey other && Arrays.deepEquals(values, other.values);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
