package io.tributary.sql.calcite;

import java.util.function.Supplier;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * The rows of a one-column series table function ({@code generate_series} over integers, numerics
 * or timestamps): each enumeration, and each reset, starts a fresh {@link Cursor} from the
 * supplier, so the series is computed lazily and can be read more than once. Enumerated on the
 * thread running the query.
 */
final class SeriesRows extends AbstractEnumerable<Object[]> {
    /** Produces one enumeration's values in order. */
    interface Cursor {
        /** The next value of the series, or null once it has ended (a series has no null values). */
        Object next();
    }

    private final Supplier<Cursor> cursors;

    SeriesRows(Supplier<Cursor> cursors) {
        this.cursors = cursors;
    }

    @Override
    public Enumerator<Object[]> enumerator() {
        return new Enumerator<>() {
            private Cursor cursor = cursors.get();
            private Object[] current;

            @Override
            public Object[] current() {
                return current;
            }

            @Override
            public boolean moveNext() {
                Object value = cursor.next();
                if (value == null) {
                    return false;
                }
                current = new Object[] {value};
                return true;
            }

            @Override
            public void reset() {
                cursor = cursors.get();
            }

            @Override
            public void close() {}
        };
    }
}
