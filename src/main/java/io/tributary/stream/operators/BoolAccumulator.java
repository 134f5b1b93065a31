package io.tributary.stream.operators;

/**
 * BOOL_AND / BOOL_OR: counts true and false values apart, so removing a value is exact; NULL over
 * no values.
 */
final class BoolAccumulator implements Accumulator {
    private final boolean and;
    private long trues;
    private long falses;

    BoolAccumulator(boolean and, long trues, long falses) {
        this.and = and;
        this.trues = trues;
        this.falses = falses;
    }

    @Override
    public void add(Object value, int sign) {
        if ((Boolean) value) {
            trues += sign;
        } else {
            falses += sign;
        }
    }

    @Override
    public Object result() {
        if (trues == 0 && falses == 0) {
            return null;
        }
        return and ? falses == 0 : trues > 0;
    }

    @Override
    public void save(Object[] row, int at) {
        row[at] = trues;
        row[at + 1] = falses;
    }
}
