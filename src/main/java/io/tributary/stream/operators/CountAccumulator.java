package io.tributary.stream.operators;

/** COUNT(*) and COUNT(x): the number of rows (or non-null values) added; BIGINT, never NULL. */
final class CountAccumulator implements Accumulator {
    private long count;

    CountAccumulator() {}

    CountAccumulator(long count) {
        this.count = count;
    }

    @Override
    public void add(Object value, int sign) {
        count += sign;
    }

    /** Counts {@code n} more rows or values at once ({@link FlatInserts}' folded inserts). */
    void add(long n) {
        count += n;
    }

    @Override
    public Object result() {
        return count;
    }

    @Override
    public void save(Object[] row, int at) {
        row[at] = count;
    }
}
