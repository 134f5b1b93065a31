package io.tributary.stream.operators;

import io.tributary.common.types.DataType;
import java.math.BigDecimal;

/**
 * SUM / SUM0 into a NUMERIC result: exact {@link BigDecimal} arithmetic that keeps the inputs'
 * scale and never rounds. The result's scale is raised (never lowered) to the result type's scale
 * when it has one, so it is a canonical value of that type.
 *
 * <p>Known difference from PostgreSQL: with inputs of mixed scales (unconstrained NUMERIC), the
 * scale is the largest seen since the group last had no values, even after the value that brought
 * it was removed ({@code 1.50 + 2.5 - 1.50} reads {@code 2.50}; PostgreSQL says {@code 2.5}).
 */
final class DecimalSumAccumulator implements Accumulator {
    private final DataType type;
    private final boolean zeroWhenEmpty;
    private BigDecimal sum;
    private long count;

    DecimalSumAccumulator(DataType type, boolean zeroWhenEmpty, BigDecimal sum, long count) {
        this.type = type;
        this.zeroWhenEmpty = zeroWhenEmpty;
        this.sum = sum;
        this.count = count;
    }

    @Override
    public void add(Object value, int sign) {
        BigDecimal x = value instanceof BigDecimal d
                ? d
                : value instanceof Float || value instanceof Double
                        ? BigDecimal.valueOf(((Number) value).doubleValue())
                        : BigDecimal.valueOf(((Number) value).longValue());
        count += sign;
        // back to a plain zero when empty, so a scale brought by removed values does not linger
        sum = count == 0 ? BigDecimal.ZERO : sign > 0 ? sum.add(x) : sum.subtract(x);
    }

    @Override
    public Object result() {
        if (count == 0) {
            return zeroWhenEmpty ? scaled(BigDecimal.ZERO) : null;
        }
        return scaled(sum);
    }

    private BigDecimal scaled(BigDecimal v) {
        return type.scale() > v.scale() ? v.setScale(type.scale()) : v;
    }

    @Override
    public void save(Object[] row, int at) {
        row[at] = sum;
        row[at + 1] = count;
    }
}
