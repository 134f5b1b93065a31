package io.tributary.stream.operators;

import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;

/**
 * SUM / SUM0 into REAL or DOUBLE PRECISION, accumulated in a {@code double}. Floating-point
 * addition is not associative, so after removals the sum may differ in its last bits from a sum
 * recomputed over the remaining values; it is reset to exactly 0 whenever the group has no values
 * left, so such drift never outlives the values that caused it.
 */
final class FloatSumAccumulator implements Accumulator {
    private final DataType type;
    private final boolean zeroWhenEmpty;
    private double sum;
    private long count;

    FloatSumAccumulator(DataType type, boolean zeroWhenEmpty, double sum, long count) {
        this.type = type;
        this.zeroWhenEmpty = zeroWhenEmpty;
        this.sum = sum;
        this.count = count;
    }

    @Override
    public void add(Object value, int sign) {
        count += sign;
        sum = count == 0 ? 0 : sum + sign * ((Number) value).doubleValue();
    }

    @Override
    public Object result() {
        if (count == 0 && !zeroWhenEmpty) {
            return null;
        }
        return type.kind() == TypeKind.REAL ? (Object) (float) sum : (Object) sum;
    }

    @Override
    public void save(Object[] row, int at) {
        row[at] = sum;
        row[at + 1] = count;
    }
}
